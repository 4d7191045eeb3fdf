// Checks of user-supplied values shared by several actions.
import { badRequest } from './errors.ts';
import { LIMITS } from './limits.ts';

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export function checkEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > LIMITS.maxEmailLength || !EMAIL_RE.test(e)) throw badRequest(`Invalid email '${email}'`);
  return e;
}

export function checkFullName(name: string): string {
  const n = name.trim();
  if (n.length < LIMITS.minFullNameLength) throw badRequest('Name too short!');
  if (n.length > LIMITS.maxFullNameLength) throw badRequest('Name too long!');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f*`\\>"@]/.test(n) || /[\p{Cc}]/u.test(n)) throw badRequest('Invalid characters in name!');
  return n;
}

export function checkPasswordStrength(password: string): void {
  if (password.length < LIMITS.passwordMinLength) {
    throw badRequest(`The password is too weak (at least ${LIMITS.passwordMinLength} characters).`);
  }
}

/** No NUL or other control characters apart from tab and newline. */
export function hasBadCharacters(s: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s);
}

export function checkStreamName(name: string): string {
  const n = name.trim();
  if (n.length === 0) throw badRequest('Stream name can\'t be empty!');
  if (n.length > LIMITS.maxStreamNameLength) throw badRequest(`Stream name too long (limit: ${LIMITS.maxStreamNameLength} characters).`);
  if (hasBadCharacters(n)) throw badRequest(`Invalid character in stream name, at position ${[...n].findIndex((c) => hasBadCharacters(c)) + 1}!`);
  return n;
}

export function checkTopic(topic: string): string {
  const t = topic.trim();
  if (t.length > LIMITS.maxTopicLength) throw badRequest(`Topic too long (limit: ${LIMITS.maxTopicLength} characters)`);
  if (hasBadCharacters(t)) throw badRequest('Invalid character in topic');
  return t;
}
