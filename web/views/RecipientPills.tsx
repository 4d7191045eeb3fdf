// Direct-message recipients as pills. A person is added from the typeahead (arrows, Enter or
// Tab) or by typing their exact email or name and Enter / a comma; removed with the pill's ×
// button or Backspace in the empty field. The field stays the one "To" textbox throughout.
import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import { store } from './context.ts';
import { SuggestionList, comboProps, recipientSuggestions, suggestionKey, suggestions, type Choice } from './Suggestions.tsx';

/** The active person whose email or full name is exactly `text` (any case). */
export function personNamed(text: string): number | undefined {
  const q = text.trim().toLowerCase();
  if (!q) return undefined;
  const byEmail = store.users.byEmail(q);
  if (byEmail?.is_active) return byEmail.user_id;
  return store.users.active.value.find((u) => u.full_name.toLowerCase() === q)?.user_id;
}

export function RecipientPills({ ids, onChange, inputRef, onDone }: { ids: number[]; onChange: (ids: number[]) => void; inputRef: RefObject<HTMLInputElement>; onDone: () => void }) {
  const [text, setText] = useState('');

  function add(id: number) {
    if (!ids.includes(id)) onChange([...ids, id]);
    setText('');
    suggestions.value = null;
  }

  function remove(id: number) {
    onChange(ids.filter((x) => x !== id));
    inputRef.current?.focus();
  }

  function pick(c: Choice) {
    if (c.userId !== undefined) add(c.userId);
  }

  function onKeyDown(e: KeyboardEvent) {
    if (suggestionKey(e, 'to', pick)) return;
    const el = e.currentTarget as HTMLInputElement;
    if (e.key === 'Backspace' && el.selectionStart === 0 && el.selectionEnd === 0 && ids.length) {
      e.preventDefault();
      onChange(ids.slice(0, -1));
    } else if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      const id = personNamed(text);
      if (id !== undefined) add(id);
      else if (e.key === 'Enter' && !text.trim()) onDone();
    }
  }

  return (
    <div class="field grow">
      <label id="compose-to-label" for="compose-to">
        To
      </label>
      <div class="pills" role="group" aria-labelledby="compose-to-label" onClick={(e) => e.target === e.currentTarget && inputRef.current?.focus()}>
        {ids.map((id) => {
          const name = store.users.name(id);
          return (
            <span class="pill" key={id}>
              {name}
              <button type="button" class="pill-remove" aria-label={`Remove ${name}`} title={`Remove ${name}`} onClick={() => remove(id)}>
                ×
              </button>
            </span>
          );
        })}
        <input
          id="compose-to"
          ref={inputRef}
          value={text}
          placeholder={ids.length ? '' : 'Add people by name or email'}
          autocomplete="off"
          {...comboProps('to')}
          onInput={(e) => {
            setText(e.currentTarget.value);
            suggestions.value = recipientSuggestions(e.currentTarget.value, ids);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            if (suggestions.peek()?.field === 'to') suggestions.value = null;
            const id = personNamed(text);
            if (id !== undefined) add(id);
          }}
        />
      </div>
      <SuggestionList field="to" pick={pick} />
    </div>
  );
}
