// The "who may" rules as one table: policy value × role × waiting period, for the server's policy
// module and the web client's mirror of it. Each row is written out by hand (Y allowed, n refused)
// from the reference's rules, so a change to either implementation that disagrees fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BOT_CREATION_POLICY,
  canCreateBot,
  canPostToStream,
  COMMON_POLICY,
  isFullMember,
  isNewMember,
  may,
  meetsRolePolicy,
  OWNERS_ONLY_POLICY,
  POLICY_RULES,
  type PolicyRule,
  requireMayInviteAs,
  ROLE,
  STREAM_POST_POLICY,
} from '../../src/lib/permissions.ts';
import type { ApiError } from '../../src/lib/errors.ts';
import { REALM_SETTING_DEFAULTS } from '../../src/lib/settings-registry.ts';
import * as web from '../../web/store/permissions.ts';

const NOW = 1_800_000_000;
const WAITING_DAYS = 10;
const DAY = 86400;

/** The table's columns: each role, past the waiting period ("old") and within it ("new"). */
const COLUMNS = [
  ['owner', ROLE.OWNER],
  ['administrator', ROLE.ADMINISTRATOR],
  ['moderator', ROLE.MODERATOR],
  ['member', ROLE.MEMBER],
  ['guest', ROLE.GUEST],
].flatMap(([name, role]) => [
  { name: `old ${name as string}`, member: { role: role as number, date_joined: NOW - (WAITING_DAYS + 1) * DAY } },
  { name: `new ${name as string}`, member: { role: role as number, date_joined: NOW - (WAITING_DAYS - 1) * DAY } },
]);
const HEADER = 'owner, admin, moderator, member, guest; each old then new';

function checkRow(label: string, row: string, decide: (c: (typeof COLUMNS)[number]) => boolean): void {
  assert.equal(row.length, COLUMNS.length, `${label}: ${HEADER}`);
  COLUMNS.forEach((c, i) => assert.equal(decide(c), row[i] === 'Y', `${label}, ${c.name}`));
}

// The realm's common policies (the reference's has_permission). Moderators are never new
// members: the waiting period holds back members only (and guests, who are refused anyway).
const COMMON: [string, number, string][] = [
  ['everyone', COMMON_POLICY.EVERYONE, 'YYYYYYYYYY'],
  ['members', COMMON_POLICY.MEMBERS, 'YYYYYYYYnn'],
  ['full members', COMMON_POLICY.FULL_MEMBERS, 'YYYYYYYnnn'],
  ['moderators', COMMON_POLICY.MODERATORS, 'YYYYYYnnnn'],
  ['administrators', COMMON_POLICY.ADMINS, 'YYYYnnnnnn'],
  ['owners only', OWNERS_ONLY_POLICY, 'YYnnnnnnnn'],
  ['nobody', COMMON_POLICY.NOBODY, 'nnnnnnnnnn'],
];

test('common policies: policy × role × waiting period', () => {
  for (const [label, policy, row] of COMMON) checkRow(label, row, (c) => meetsRolePolicy(c.member, policy, WAITING_DAYS, NOW));
});

test('the web client mirror decides the common policies as the server does', () => {
  for (const [label, policy, row] of COMMON) {
    checkRow(`web ${label}`, row, (c) => {
      const user = { role: c.member.role, date_joined: new Date(c.member.date_joined * 1000).toISOString() };
      return web.policyAllows(policy, c.member.role, web.isNewMember(user, WAITING_DAYS, NOW));
    });
  }
  assert.deepEqual(web.ROLE, { OWNER: ROLE.OWNER, ADMIN: ROLE.ADMINISTRATOR, MODERATOR: ROLE.MODERATOR, MEMBER: ROLE.MEMBER, GUEST: ROLE.GUEST });
});

test('with no waiting period nobody is a new member; the waiting period ends on its last second', () => {
  const joinedNow = { role: ROLE.MEMBER, date_joined: NOW };
  assert.equal(isNewMember(joinedNow, 0, NOW), false);
  assert.equal(isNewMember({ role: ROLE.MEMBER, date_joined: NOW - WAITING_DAYS * DAY }, WAITING_DAYS, NOW), false);
  assert.equal(isNewMember({ role: ROLE.MEMBER, date_joined: NOW - WAITING_DAYS * DAY + 1 }, WAITING_DAYS, NOW), true);
  checkRow('role:fullmembers', 'YYYYYYYnnn', (c) => isFullMember(c.member, WAITING_DAYS, NOW));
});

// A stream's stream_post_policy (the reference's check_stream_access_based_on_stream_post_policy).
// Decided by the reference: a moderator within the waiting period may post where only full
// members may (it was refused by the older copy of this rule in lib/access.ts).
test('stream post policy: policy × role × waiting period', () => {
  const rows: [string, number, string][] = [
    ['everyone', STREAM_POST_POLICY.EVERYONE, 'YYYYYYYYYY'],
    ['administrators', STREAM_POST_POLICY.ADMINS, 'YYYYnnnnnn'],
    ['full members', STREAM_POST_POLICY.FULL_MEMBERS, 'YYYYYYYnnn'],
    ['moderators', STREAM_POST_POLICY.MODERATORS, 'YYYYYYnnnn'],
  ];
  for (const [label, policy, row] of rows) {
    checkRow(label, row, (c) => canPostToStream({ ...c.member, is_bot: 0 }, policy, WAITING_DAYS, NOW));
    // Bots post to restricted streams only as administrators.
    checkRow(`bot, ${label}`, policy === STREAM_POST_POLICY.EVERYONE ? row : 'YYYYnnnnnn', (c) => canPostToStream({ ...c.member, is_bot: 1 }, policy, WAITING_DAYS, NOW));
  }
});

test('every rule reads its own setting, and some refuse guests whatever the policy says', () => {
  const settings = { ...REALM_SETTING_DEFAULTS, waiting_period_threshold: WAITING_DAYS };
  const noGuests: PolicyRule[] = ['moveBetweenStreams', 'manageUserGroups', 'addCustomEmoji'];
  for (const rule of Object.keys(POLICY_RULES) as PolicyRule[]) {
    const setting = POLICY_RULES[rule].setting;
    for (const [label, policy, row] of COMMON) {
      const expected = noGuests.includes(rule) ? row.slice(0, 8) + 'nn' : row;
      checkRow(`${rule} under ${label}`, expected, (c) => may(c.member, rule, { ...settings, [setting]: policy }, NOW));
      if (rule === 'manageUserGroups') {
        checkRow(`web ${rule} under ${label}`, expected, (c) => {
          const user = { role: c.member.role, date_joined: new Date(c.member.date_joined * 1000).toISOString() };
          return web.mayManageUserGroups(policy, c.member.role, web.isNewMember(user, WAITING_DAYS, NOW));
        });
      }
    }
  }
});

// Who may invite as which role (the reference's check_role_based_permissions): a moderator may
// not invite moderators (it could before: the older rule was "one's own role or below").
test('invitations: inviter role × role invited as', () => {
  const roles = [ROLE.OWNER, ROLE.ADMINISTRATOR, ROLE.MODERATOR, ROLE.MEMBER, ROLE.GUEST];
  const rows: [number, string][] = [
    [ROLE.OWNER, 'Ynnnn'],
    [ROLE.ADMINISTRATOR, 'YYnnn'],
    [ROLE.MODERATOR, 'YYnnn'],
    [ROLE.MEMBER, 'YYYYY'],
    [ROLE.GUEST, 'YYYYY'],
  ];
  for (const [inviteAs, row] of rows) {
    roles.forEach((role, i) => {
      let allowed = true;
      try {
        requireMayInviteAs({ role }, inviteAs);
      } catch (err) {
        assert.equal((err as ApiError).code, 'UNAUTHORIZED_PRINCIPAL');
        allowed = false;
      }
      assert.equal(allowed, row[i] === 'Y', `role ${role} inviting as ${inviteAs}`);
      assert.equal(web.mayInviteAs(role, inviteAs), row[i] === 'Y', `web: role ${role} inviting as ${inviteAs}`);
    });
  }
});

test('bot creation policy: policy × role × bot type', () => {
  const rows: [string, number, boolean, string][] = [
    ['everyone, generic', BOT_CREATION_POLICY.EVERYONE, true, 'YYYYYYYY'],
    ['everyone, webhook', BOT_CREATION_POLICY.EVERYONE, false, 'YYYYYYYY'],
    ['limit generic bots, generic', BOT_CREATION_POLICY.LIMIT_GENERIC_BOTS, true, 'YYYYnnnn'],
    ['limit generic bots, webhook', BOT_CREATION_POLICY.LIMIT_GENERIC_BOTS, false, 'YYYYYYYY'],
    ['administrators only, webhook', BOT_CREATION_POLICY.ADMINS_ONLY, false, 'YYYYnnnn'],
  ];
  // Guests are refused before the policy (requireMember), so the columns stop at members.
  const columns = COLUMNS.slice(0, 8);
  for (const [label, policy, generic, row] of rows) {
    columns.forEach((c, i) => assert.equal(canCreateBot(c.member, policy, generic), row[i] === 'Y', `${label}, ${c.name}`));
  }
});
