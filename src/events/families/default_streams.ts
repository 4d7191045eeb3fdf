// default_streams events: the realm's whole list of default streams.
import { replaceFamily } from './replace.ts';

export const defaultStreamsFamily = replaceFamily('default_streams', 'realm_default_streams');
