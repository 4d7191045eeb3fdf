import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localImageUrl } from '../../lib/images.ts';

test('localImageUrl keeps our uploads as same-origin paths and refuses other origins', () => {
  const origin = 'http://localhost:4000';
  // The server's absolute URL may name another host or port than the page's (a proxy, a relay).
  assert.equal(localImageUrl('http://chat.example:9991/user_avatars/1/7.png?version=3', origin), '/user_avatars/1/7.png?version=3');
  assert.equal(localImageUrl('https://chat.example/user_avatars/1/realm/icon.png?version=2', origin), '/user_avatars/1/realm/icon.png?version=2');
  assert.equal(localImageUrl('http://localhost:4000/static/x.png', origin), '/static/x.png');
  assert.equal(localImageUrl('/user_avatars/1/7.png', origin), '/user_avatars/1/7.png');
  // The external avatar service, protocol-relative URLs and other schemes are not shown.
  assert.equal(localImageUrl('https://secure.gravatar.com/avatar/abc?d=identicon&version=1', origin), null);
  assert.equal(localImageUrl('//evil.example/user_avatars/1/7.png', origin), null);
  assert.equal(localImageUrl('javascript:alert(1)//user_avatars/', origin), null);
  assert.equal(localImageUrl('not a url', origin), null);
  assert.equal(localImageUrl(null, origin), null);
  assert.equal(localImageUrl('', origin), null);
});
