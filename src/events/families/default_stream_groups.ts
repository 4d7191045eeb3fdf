// default_stream_groups events: the realm's whole list of default stream groups.
import { replaceFamily } from './replace.ts';

export const defaultStreamGroupsFamily = replaceFamily('default_stream_groups', 'realm_default_stream_groups');
