// realm_linkifiers events: the realm's whole list of linkifiers, only for clients that read URL
// templates (the legacy form is in legacy.ts).
import type { EventFamily } from '../family.ts';
import { linkifiersFamily } from './legacy.ts';
import { replaceFamily } from './replace.ts';

export const realmLinkifiersFamily: EventFamily = { ...linkifiersFamily, apply: replaceFamily('realm_linkifiers', 'realm_linkifiers').apply! };
