// The emoji picker and the glyph of a reaction.
//
// Interface:
//   <EmojiPicker onSelect={(r) => …} onClose={() => …} realmEmoji={state.realm_emoji} label? columns? />
//     A non-modal dialog (default name "Emoji picker") for the caller to place in a popover next
//     to its "Add reaction" button. On mount it focuses its searchbox "Search emoji" and loads the
//     Unicode set (a lazy chunk, see lib/emoji-data.ts). Popular emoji come first, then the
//     categories, then the realm's custom emoji. Each emoji is a button named by its emoji_name.
//     Keys: typing filters; ArrowDown or Enter in the searchbox goes to (Enter: picks) the first
//     result; arrows, Home and End move in the grid (ArrowUp from the top row returns to the
//     searchbox); Enter or Space picks; Esc calls onClose. Picking calls
//     onSelect({ emoji_name, emoji_code, reaction_type }) in the API's reaction shape; the caller
//     closes the picker and returns focus to its button.
//   <ReactionEmoji reaction={{ emoji_name, emoji_code, reaction_type }} realmEmoji? decorative? />
//     The Unicode character, or the custom emoji's <img>; named by the emoji name unless
//     `decorative` (then hidden from screen readers, for a button that names itself).
// Styles: emoji-picker.css (imported here), with the app's CSS variables.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  gridMove,
  loadUnicodeEmoji,
  popularFirst,
  reactionGlyph,
  searchEmoji,
  toReaction,
  withRealmEmoji,
  type EmojiEntry,
  type ReactionLike,
  type ReactionType,
  type RealmEmoji,
} from '../lib/emoji-data.ts';
import './emoji-picker.css';

type RealmEmojiSet = Readonly<Record<string, RealmEmoji>> | readonly RealmEmoji[];

export interface EmojiPickerProps {
  onSelect: (reaction: { emoji_name: string; emoji_code: string; reaction_type: ReactionType }) => void;
  onClose: () => void;
  realmEmoji?: RealmEmojiSet | undefined;
  /** The dialog's accessible name. */
  label?: string | undefined;
  columns?: number | undefined;
}

export function EmojiPicker({ onSelect, onClose, realmEmoji, label = 'Emoji picker', columns = 8 }: EmojiPickerProps) {
  const [unicode, setUnicode] = useState<EmojiEntry[] | undefined>(undefined);
  const [failed, setFailed] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const search = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);

  // Layout effect: focus moves in the same frame the picker appears.
  useLayoutEffect(() => search.current?.focus(), []);

  useEffect(() => {
    let live = true;
    loadUnicodeEmoji().then(
      (entries) => live && setUnicode(entries),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, []);

  const all = useMemo(() => popularFirst(withRealmEmoji(unicode ?? [], realmEmoji ?? [])), [unicode, realmEmoji]);
  const shown = useMemo(() => searchEmoji(all, query), [all, query]);
  const current = Math.min(active, Math.max(shown.length - 1, 0));

  const focusItem = (index: number) => {
    setActive(index);
    grid.current?.querySelectorAll<HTMLButtonElement>('button')[index]?.focus();
  };

  const pick = (entry: EmojiEntry | undefined) => {
    if (entry) onSelect(toReaction(entry));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      // Stop here: the app's Esc would otherwise also act behind the picker.
      e.preventDefault();
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.target === search.current) {
      if (e.key === 'ArrowDown' && shown.length > 0) {
        e.preventDefault();
        focusItem(0);
      } else if (e.key === 'Enter') {
        e.preventDefault();
        pick(shown[0]);
      }
      return;
    }
    const next = gridMove(current, e.key, shown.length, columns);
    if (next === undefined) return;
    e.preventDefault();
    if (next === 'search') search.current?.focus();
    else focusItem(next);
  };

  const status = failed ? 'Emoji could not be loaded' : unicode === undefined ? 'Loading emoji…' : shown.length === 0 ? 'No emoji found' : '';

  return (
    <div class="emoji-picker" role="dialog" aria-label={label} onKeyDown={onKeyDown}>
      <input
        ref={search}
        class="emoji-picker-search"
        type="search"
        aria-label="Search emoji"
        placeholder="Search emoji"
        autocomplete="off"
        spellcheck={false}
        value={query}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
        }}
      />
      <p class="emoji-picker-status" role="status">
        {status}
      </p>
      <div ref={grid} class="emoji-picker-grid" role="group" aria-label="Emoji" style={{ '--emoji-columns': String(columns) }}>
        {shown.map((entry, i) => (
          <button
            key={`${entry.reaction_type}:${entry.emoji_code}`}
            type="button"
            class="emoji-picker-item"
            aria-label={entry.emoji_name}
            title={`:${entry.emoji_name}:`}
            tabIndex={i === current ? 0 : -1}
            onFocus={() => setActive(i)}
            onClick={() => pick(entry)}
          >
            <ReactionEmoji reaction={toReaction(entry)} realmEmoji={realmEmoji} decorative />
          </button>
        ))}
      </div>
    </div>
  );
}

export interface ReactionEmojiProps {
  reaction: ReactionLike;
  realmEmoji?: RealmEmojiSet | undefined;
  decorative?: boolean | undefined;
}

export function ReactionEmoji({ reaction, realmEmoji, decorative = false }: ReactionEmojiProps) {
  const glyph = reactionGlyph(reaction, realmEmoji);
  if (glyph.kind === 'image') {
    return <img class="emoji-glyph emoji-glyph-image" src={glyph.src} alt={decorative ? '' : glyph.label} title={decorative ? undefined : glyph.label} loading="lazy" />;
  }
  if (decorative) {
    return (
      <span class="emoji-glyph" aria-hidden="true">
        {glyph.text}
      </span>
    );
  }
  return (
    <span class="emoji-glyph" role="img" aria-label={glyph.label} title={glyph.label}>
      {glyph.text}
    </span>
  );
}
