// The settings pages' API client, made once from the app's client.
import { SettingsApi } from '../../api/settings.ts';
import { client } from '../context.ts';

let api: SettingsApi | null = null;

export function settingsApi(): SettingsApi {
  api ??= new SettingsApi(client.api);
  return api;
}
