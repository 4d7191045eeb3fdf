// alert_words events: the user's whole list of alert words.
import { replaceFamily } from './replace.ts';

export const alertWordsFamily = replaceFamily('alert_words', 'alert_words');
