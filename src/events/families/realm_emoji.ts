// realm_emoji events: the realm's whole emoji map, deactivated emoji included.
import { replaceFamily } from './replace.ts';

export const realmEmojiFamily = replaceFamily('realm_emoji', 'realm_emoji');
