// The settings overlay's place in the main view. The pages are a chunk of their own, loaded
// when a settings URL is first opened, so the main view's JavaScript stays as small as it was.
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { effect } from '@preact/signals';
import type { FunctionComponent } from 'preact';
import { store } from '../context.ts';
import { enterNewlinePref, setTheme } from '../state.ts';
import { settingsRoute, type SettingsKind } from './route.ts';
import { displayAttributes } from '../../lib/display.ts';

type OverlayProps = { kind: SettingsKind; section: string };
let loaded: FunctionComponent<OverlayProps> | null = null;

/**
 * Settings that change what this page does follow the stored value, in every tab: the theme
 * (color_scheme 1 = follow the system, 2 = dark, 3 = light), Enter sends (the sound setting is read where it sounds),
 * and the display settings, as attributes on the document root that styles.css reads (lib/display.ts).
 */
export function installSettingsEffects(): () => void {
  let first = true;
  let enterSends: unknown;
  return effect(() => {
    const s = store.settings.user.value;
    const root = document.documentElement;
    for (const [name, value] of Object.entries(displayAttributes(s))) {
      if (value === null) root.removeAttribute(name);
      else root.setAttribute(name, value);
    }
    const scheme = s.color_scheme;
    if (scheme === 2) setTheme('dark');
    else if (scheme === 3) setTheme('light');
    else if (scheme === 1 && !first) setTheme(matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light');
    // Enter sends: the compose box's own choice stands until the setting changes (the server's
    // default, off, would otherwise undo the app's default of Enter sending).
    if (!first && typeof s.enter_sends === 'boolean' && s.enter_sends !== enterSends) enterNewlinePref.set(!s.enter_sends);
    enterSends = s.enter_sends;
    first = false;
  });
}

export function SettingsOverlay() {
  const route = settingsRoute.value;
  const [Overlay, setOverlay] = useState<FunctionComponent<OverlayProps> | null>(() => loaded);
  // Before the first paint, so the display settings never show the default look first.
  useLayoutEffect(() => installSettingsEffects(), []);
  useEffect(() => {
    if (!route || Overlay) return;
    void import('./Settings.tsx').then((m) => {
      loaded = m.Overlay;
      setOverlay(() => m.Overlay);
    });
  }, [route !== null]);
  if (!route) return null;
  if (!Overlay) return <div class="settings-overlay" role="status" aria-label="Loading settings" />;
  return <Overlay kind={route.kind} section={route.section} />;
}
