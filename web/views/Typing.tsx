import { store } from './context.ts';
import { currentNarrow } from './nav.ts';
import { TypingStore } from '../store/misc.ts';
import { operandIds } from '../store/match.ts';

/** "Alice is typing…" for the conversation on screen. */
export function TypingLine() {
  const narrow = currentNarrow();
  const stream = narrow.find((t) => t.operator === 'stream');
  const topic = narrow.find((t) => t.operator === 'topic');
  const dm = narrow.find((t) => t.operator === 'dm');
  const map = store.typing.byConversation.value;
  let key: string | null = null;
  if (stream && topic && narrow.length === 2) key = TypingStore.streamKey(Number(stream.operand), String(topic.operand));
  else if (dm && narrow.length === 1) key = TypingStore.dmKey(operandIds(dm.operand), store.me);
  const typists = key ? (map.get(key) ?? []) : [];
  const names = typists.map((t) => store.users.name(t.userId));
  const text = names.length === 0 ? '' : names.length === 1 ? `${names[0]} is typing…` : names.length <= 3 ? `${names.join(', ')} are typing…` : 'Several people are typing…';
  return (
    <div class="typing" aria-live="polite">
      {text}
    </div>
  );
}
