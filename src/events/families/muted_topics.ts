// muted_topics events (legacy): the user's whole list of muted topics.
import { replaceFamily } from './replace.ts';

export const mutedTopicsFamily = replaceFamily('muted_topics', 'muted_topics');
