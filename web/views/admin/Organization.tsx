// Organization administration: the profile (name, description, language) and the policies.
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ImageSetting, RealmSelect, RealmToggle, Section, TextSetting, type Option } from '../settings/fields.tsx';
import { RealmIcon } from '../Header.tsx';
import { LANGUAGES } from '../settings/Preferences.tsx';
import { isOwner } from '../settings/route.ts';
import { limitText } from '../../store/permissions.ts';
import { JoiningSettings } from './Joining.tsx';

const opts = (...pairs: [string | number, string][]): Option[] => pairs.map(([value, label]) => ({ value, label }));

// The API's common policy values (COMMON_POLICY).
const MEMBERS: [number, string] = [1, 'Members'];
const ADMINS: [number, string] = [2, 'Administrators'];
const FULL: [number, string] = [3, 'Full members'];
const MODS: [number, string] = [4, 'Moderators and administrators'];
const EVERYONE: [number, string] = [5, 'Everyone'];
const NOBODY: [number, string] = [6, 'Nobody'];
const BASIC = [ADMINS, MODS, FULL, MEMBERS];

const TIME_LIMITS = opts(['unlimited', 'Any time'], [120, '2 minutes'], [600, '10 minutes'], [3600, '1 hour'], [86400, '1 day'], [604800, '1 week']);

/** The usual limits, and the organization's own when it is another (set through the API): in words, not seconds. */
function timeLimits(prop: string): Option[] {
  const v = store.settings.realm.value[prop];
  return typeof v === 'number' && !TIME_LIMITS.some((o) => o.value === v) ? [...TIME_LIMITS, { value: v, label: limitText(v) }] : TIME_LIMITS;
}

export function OrganizationProfile() {
  const realm = store.settings.realm.value;
  return (
    <Section title="Profile">
      <TextSetting label="Organization name" value={String(realm.name ?? '')} maxLength={40} onSave={(v) => settingsApi().updateRealm({ name: v })} />
      <TextSetting label="Organization description" multiline value={String(realm.description ?? '')} onSave={(v) => settingsApi().updateRealm({ description: v })} />
      <RealmSelect prop="default_language" label="Language for automated messages and invitation emails" options={LANGUAGES} />
      <h4>Organization icon</h4>
      <ImageSetting
        noun="icon"
        current={<RealmIcon size={96} />}
        uploaded={realm.icon_source === 'U'}
        onUpload={(file) => settingsApi().uploadRealmIcon(file)}
        onRemove={() => settingsApi().removeRealmIcon()}
      />
    </Section>
  );
}

export function OrganizationSettings() {
  const realm = store.settings.realm.value;
  const owner = isOwner();
  const retention = realm.message_retention_days;
  return (
    <>
      <Section title="Streams">
        <RealmSelect prop="create_public_stream_policy" label="Who can create public streams" options={opts(...BASIC)} />
        <RealmSelect prop="create_private_stream_policy" label="Who can create private streams" options={opts(...BASIC)} />
        <RealmSelect prop="invite_to_stream_policy" label="Who can add people to streams" options={opts(...BASIC)} />
      </Section>
      <JoiningSettings inviteOptions={opts(...BASIC, NOBODY)} />
      <Section title="Messages">
        <RealmToggle prop="allow_message_editing" label="Allow editing messages" />
        <RealmSelect prop="message_content_edit_limit_seconds" label="Time limit for editing messages" options={timeLimits('message_content_edit_limit_seconds')} disabled={realm.allow_message_editing === false} />
        <RealmSelect prop="edit_topic_policy" label="Who can move messages to another topic" options={opts(...BASIC, EVERYONE)} />
        <RealmSelect prop="move_messages_within_stream_limit_seconds" label="Time limit for moving messages between topics" options={timeLimits('move_messages_within_stream_limit_seconds')} />
        <RealmSelect prop="move_messages_between_streams_policy" label="Who can move messages to another stream" options={opts(...BASIC, NOBODY)} />
        <RealmSelect prop="delete_own_message_policy" label="Who can delete their own messages" options={opts(...BASIC, EVERYONE)} />
        <RealmSelect prop="message_content_delete_limit_seconds" label="Time limit for deleting messages" options={timeLimits('message_content_delete_limit_seconds')} />
        <RealmToggle prop="allow_edit_history" label="Show the edit history of messages" />
        <RealmToggle prop="mandatory_topics" label="Messages to streams need a topic" />
        <RealmSelect prop="wildcard_mention_policy" label="Who can use @all and @everyone" options={opts([1, 'Everyone'], [2, 'Members'], [3, 'Full members'], [5, 'Administrators'], [7, 'Moderators and administrators'], [6, 'Nobody'])} />
        <RealmSelect prop="private_message_policy" label="Direct messages" options={opts([1, 'Allowed'], [2, 'Only with bots'])} />
        <RealmSelect
          prop="message_retention_days"
          label="Keep messages for"
          disabled={!owner}
          options={opts([-1, 'Forever'], [30, '30 days'], [90, '90 days'], [365, '1 year'], ...(typeof retention === 'number' && ![-1, 30, 90, 365].includes(retention) ? [[retention, `${retention} days`] as [number, string]] : []))}
        />
      </Section>
      <Section title="Other permissions">
        <RealmSelect prop="bot_creation_policy" label="Who can create bots" options={opts([1, 'Everyone'], [2, 'Everyone, but only administrators add generic bots'], [3, 'Administrators'])} />
        <RealmSelect prop="user_group_edit_policy" label="Who can create and edit user groups" options={opts(...BASIC)} />
        <RealmSelect prop="add_custom_emoji_policy" label="Who can add custom emoji" options={opts(...BASIC)} />
        <RealmToggle prop="name_changes_disabled" label="Prevent people from changing their names" />
        <RealmToggle prop="email_changes_disabled" label="Prevent people from changing their email addresses" />
        <RealmToggle prop="avatar_changes_disabled" label="Prevent people from changing their avatars" />
        <RealmToggle prop="enable_read_receipts" label="Read receipts" />
        <RealmToggle prop="inline_image_preview" label="Show previews of linked images" />
      </Section>
    </>
  );
}
