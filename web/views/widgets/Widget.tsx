// A message's widget (poll or todo list), shown in place of its text. The state is folded from
// the message's submessages (lib/widgets.ts), so a submessage event re-renders it live.
import { useMemo } from 'preact/hooks';
import type { Message } from '../../store/types.ts';
import { widgetState } from '../../lib/widgets.ts';
import { Poll } from './Poll.tsx';
import { Todo } from './Todo.tsx';
import './widgets.css';

/** Whether the message shows a widget instead of its text. */
export const hasWidget = (m: Message): boolean => widgetState(m.submessages) !== null;

export function Widget({ m }: { m: Message }) {
  const state = useMemo(() => widgetState(m.submessages), [m.submessages]);
  if (!state) return null;
  return state.kind === 'poll' ? <Poll m={m} poll={state} /> : <Todo m={m} todo={state} />;
}
