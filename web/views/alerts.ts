// Desktop notifications and a sound for DMs, mentions and alert words while the tab is hidden
// (until the shared notify module lands).
import { store } from './context.ts';
import { soundPref } from './state.ts';
import { isMentioned } from '../store/match.ts';
import type { Message } from '../store/types.ts';

export async function askNotificationPermission(): Promise<void> {
  if (typeof Notification === 'undefined') return;
  await Notification.requestPermission();
}

function text(html: string): string {
  const d = new DOMParser().parseFromString(html, 'text/html');
  return (d.body.textContent ?? '').trim().slice(0, 200);
}

let audio: AudioContext | null = null;
function ding(): void {
  try {
    audio ??= new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = 880;
    g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.4);
  } catch {
    /* no audio here */
  }
}

function shouldAlert(m: Message): boolean {
  if (m.sender_id === store.me) return false;
  if (m.type === 'private' || isMentioned(m.flags) || m.flags.includes('has_alert_word')) return true;
  return false;
}

export function installAlerts(): () => void {
  store.onMessage = (m) => {
    if (!document.hidden || !shouldAlert(m)) return;
    if (soundPref.signal.value) ding();
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
      const where = m.type === 'stream' ? `#${store.streams.name(m.stream_id)} > ${m.subject}` : 'Direct message';
      const n = new Notification(`${m.sender_full_name} (${where})`, { body: text(m.content), tag: String(m.id) });
      n.onclick = () => {
        window.focus();
        n.close();
      };
    }
  };
  return () => {
    store.onMessage = null;
  };
}
