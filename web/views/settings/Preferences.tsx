// Personal settings: display and behaviour (the API's display settings).
import { Section, Toggle, UserSelect, UserToggle, type Option } from './fields.tsx';
import { enterNewlinePref } from '../state.ts';
import { settingsApi } from './api.ts';

/** The languages the server knows (LANGUAGES in src/lib/settings-registry.ts). */
export const LANGUAGES: Option[] = [
  ['en', 'English'],
  ['de', 'Deutsch'],
  ['es', 'Español'],
  ['fr', 'Français'],
  ['it', 'Italiano'],
  ['ja', '日本語'],
  ['ko', '한국어'],
  ['nl', 'Nederlands'],
  ['pl', 'Polski'],
  ['pt', 'Português'],
  ['pt-br', 'Português Brasileiro'],
  ['ru', 'Русский'],
  ['tr', 'Türkçe'],
  ['uk', 'Українська'],
  ['zh-hans', '简体中文'],
  ['zh-hant', '繁體中文'],
].map(([value, label]) => ({ value: value!, label: label! }));

const opts = (...pairs: [string | number, string][]): Option[] => pairs.map(([value, label]) => ({ value, label }));

export function PreferencesSection() {
  return (
    <>
      <Section title="Appearance">
        <UserSelect prop="color_scheme" label="Theme" options={opts([1, 'Automatic (follow the system)'], [3, 'Light'], [2, 'Dark'])} />
        <UserSelect prop="emojiset" label="Emoji set" options={opts(['google', 'Google'], ['twitter', 'Twitter'], ['google-blob', 'Google blobs'], ['text', 'Plain text'])} />
        <UserToggle prop="dense_mode" label="Dense mode" />
        <UserToggle prop="fluid_layout_width" label="Use the full width on a wide screen" />
        <UserToggle prop="high_contrast_mode" label="High contrast mode" />
        <UserToggle prop="left_side_userlist" label="Show the user list in the left sidebar in narrow windows" />
        <UserToggle prop="starred_message_counts" label="Show counts for starred messages" />
        <UserToggle prop="display_emoji_reaction_users" label="Show who reacted in reactions" />
        <UserToggle prop="translate_emoticons" label="Convert emoticons to emoji, e.g. :) to 😃" />
        <UserSelect prop="user_list_style" label="User list style" options={opts([1, 'Compact'], [2, 'With status'], [3, 'With avatar and status'])} />
        <UserSelect prop="demote_inactive_streams" label="Demote inactive streams" options={opts([1, 'Automatic'], [2, 'Always'], [3, 'Never'])} />
      </Section>
      <Section title="Time and language">
        <UserSelect prop="default_language" label="Language of dates" options={LANGUAGES} />
        <UserSelect prop="twenty_four_hour_time" label="Time format" options={opts(['false', '12-hour clock (5:00 PM)'], ['true', '24-hour clock (17:00)'])} />
      </Section>
      <Section title="Behaviour">
        <Toggle
          label="Enter sends a message"
          hint="(Shift+Enter makes a new line; off: Ctrl+Enter sends)"
          value={!enterNewlinePref.signal.value}
          onSave={async (v) => {
            await settingsApi().updateSettings({ enter_sends: v });
            enterNewlinePref.set(!v);
          }}
        />
        <UserSelect prop="default_view" label="Home view" options={opts(['all_messages', 'All messages'], ['recent_topics', 'Recent conversations'])} />
        <UserToggle prop="escape_navigates_to_default_view" label="Escape goes to the home view" />
        <UserSelect prop="web_mark_read_on_scroll_policy" label="Mark messages read on scroll" options={opts([1, 'Always'], [2, 'Only in conversation views'], [3, 'Never'])} />
        <UserToggle prop="enable_drafts_synchronization" label="Keep drafts on the server" />
        <UserToggle prop="send_stream_typing_notifications" label="Let others see when I am typing in streams" />
        <UserToggle prop="send_private_typing_notifications" label="Let others see when I am typing direct messages" />
        <UserToggle prop="send_read_receipts" label="Let others see when I have read their messages" />
        <UserToggle prop="presence_enabled" label="Show my availability to others" />
      </Section>
    </>
  );
}
