// custom_profile_fields events: the realm's whole list of profile fields.
import { replaceFamily } from './replace.ts';

export const customProfileFieldsFamily = replaceFamily('fields', 'custom_profile_fields');
