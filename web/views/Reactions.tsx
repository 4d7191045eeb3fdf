// The reaction picker. Until the full emoji picker lands, a short list of common emoji.
import { useEffect, useRef, useState } from 'preact/hooks';
import { client } from './context.ts';
import { showToast, errorText } from './state.ts';
import type { Message } from '../store/types.ts';

const COMMON: [string, string][] = [
  ['+1', '1f44d'], ['tada', '1f389'], ['smile', '1f604'], ['heart', '2764'], ['joy', '1f602'], ['eyes', '1f440'],
  ['thinking', '1f914'], ['check', '2705'], ['-1', '1f44e'], ['rocket', '1f680'], ['fire', '1f525'], ['pray', '1f64f'],
  ['clap', '1f44f'], ['wave', '1f44b'], ['ok_hand', '1f44c'], ['cry', '1f622'], ['laughing', '1f606'], ['star', '2b50'],
  ['coffee', '2615'], ['octopus', '1f419'], ['sunglasses', '1f60e'], ['100', '1f4af'], ['muscle', '1f4aa'], ['sparkles', '2728'],
];

export function ReactionPicker({ m, onClose }: { m: Message; onClose: () => void }) {
  const [q, setQ] = useState('');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector('input')?.focus();
    const away = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, []);
  const shown = COMMON.filter(([name]) => name.includes(q.trim().replace(/^:|:$/g, '').toLowerCase()));
  function pick(name: string, code: string) {
    onClose();
    client.toggleReaction(m, { name, code, type: 'unicode_emoji' }).catch((e) => showToast(errorText(e), true));
  }
  return (
    <div class="popover emoji-picker" role="dialog" aria-label="Add reaction" ref={ref} onKeyDown={(e) => e.key === 'Escape' && (e.stopPropagation(), onClose())} onClick={(e) => e.stopPropagation()}>
      <input type="search" role="searchbox" aria-label="Search emoji" placeholder="Search emoji" value={q} onInput={(e) => setQ(e.currentTarget.value)} onKeyDown={(e) => e.key === 'Enter' && shown[0] && pick(...shown[0])} />
      <div class="emoji-grid">
        {shown.map(([name, code]) => (
          <button type="button" key={name} aria-label={name.replace(/_/g, ' ')} title={`:${name}:`} onClick={() => pick(name, code)}>
            {String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)))}
          </button>
        ))}
      </div>
    </div>
  );
}
