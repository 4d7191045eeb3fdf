// Organization administration: linkifiers (added, edited, removed), with a live test of a pattern
// against sample text.
import { useId, useState } from 'preact/hooks';
import { store } from '../context.ts';
import { settingsApi } from '../settings/api.ts';
import { ConfirmLine, ErrorText, focusPageAfterRemoval, Section, useSave } from '../settings/fields.tsx';
import type { Linkifier } from '../../store/settings-admin.ts';

/**
 * The links a pattern makes in a text, as the server's renderer makes them: the pattern is a
 * Python-style regular expression (named groups `(?P<name>...)`), the template an RFC 6570
 * URL template filled with the groups. Only an approximation for the preview; the server checks.
 */
export function testLinkifier(pattern: string, template: string, text: string): { match: string; url: string }[] | string {
  let re: RegExp;
  try {
    re = new RegExp(pattern.replace(/\(\?P</g, '(?<'), 'gu');
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  const out: { match: string; url: string }[] = [];
  for (const m of text.matchAll(re)) {
    if (!m[0]) break;
    const url = template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(m.groups?.[name] ?? ''));
    out.push({ match: m[0], url });
  }
  return out;
}

export function LinkifiersSection() {
  const save = useSave();
  const [open, setOpen] = useState<number | null>(null);
  // This page cannot bring a removed linkifier back: asked once more first.
  const [confirm, setConfirm] = useState<number | null>(null);
  const list = store.admin.linkifiers.value;
  return (
    <>
      <AddLinkifier />
      <Section title="Linkifiers">
        {list.length === 0 && <p class="setting-hint">No linkifiers yet.</p>}
        <ul class="plain-list">
          {list.map((l) => (
            <li key={l.id}>
              <div class="setting-line linkifier-row">
                <span class="grow">
                  <code>{l.pattern}</code> → <code>{l.url_template}</code>
                </span>
                <button type="button" aria-expanded={open === l.id} onClick={() => setOpen(open === l.id ? null : l.id)}>
                  Edit <span class="sr-only">linkifier {l.pattern}</span>
                </button>
                <button type="button" disabled={save.busy} aria-expanded={confirm === l.id} onClick={() => setConfirm(confirm === l.id ? null : l.id)}>
                  Remove <span class="sr-only">linkifier {l.pattern}</span>
                </button>
              </div>
              {confirm === l.id && (
                <ConfirmLine
                  question={
                    <>
                      Remove the linkifier <code>{l.pattern}</code>? New messages are no longer linked by it.
                    </>
                  }
                  confirm="Confirm removal"
                  busy={save.busy}
                  onConfirm={() => void save.run(() => settingsApi().removeLinkifier(l.id)).then((ok) => ok && (setConfirm(null), focusPageAfterRemoval()))}
                  onCancel={() => setConfirm(null)}
                />
              )}
              {open === l.id && <EditLinkifier linkifier={l} onDone={() => setOpen(null)} />}
            </li>
          ))}
        </ul>
        <ErrorText id="linkifier-remove-error" error={save.error} />
      </Section>
    </>
  );
}

/** A linkifier's pattern and template, changed together (the server checks the pair). */
function EditLinkifier({ linkifier: l, onDone }: { linkifier: Linkifier; onDone: () => void }) {
  const [pattern, setPattern] = useState(l.pattern);
  const [template, setTemplate] = useState(l.url_template);
  const save = useSave();
  const ids = [useId(), useId(), useId()] as const;
  const unchanged = pattern === l.pattern && template === l.url_template;
  async function submit(e: Event) {
    e.preventDefault();
    if (await save.run(() => settingsApi().updateLinkifier(l.id, pattern, template))) onDone();
  }
  return (
    <form class="edit-box" role="group" aria-label={`Edit linkifier ${l.pattern}`} onSubmit={submit}>
      <div class="setting-line">
        <span class="field grow">
          <label for={ids[0]}>Pattern</label>
          <input id={ids[0]} value={pattern} onInput={(e) => setPattern(e.currentTarget.value)} aria-describedby={ids[2]} />
        </span>
        <span class="field grow">
          <label for={ids[1]}>URL template</label>
          <input id={ids[1]} value={template} onInput={(e) => setTemplate(e.currentTarget.value)} aria-describedby={ids[2]} />
        </span>
        <button type="submit" class="primary" disabled={!pattern || !template || unchanged || save.busy}>
          Save linkifier
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      <ErrorText id={ids[2]} error={save.error} />
    </form>
  );
}

function AddLinkifier() {
  const [pattern, setPattern] = useState('');
  const [template, setTemplate] = useState('');
  const [sample, setSample] = useState('');
  const save = useSave();
  const ids = [useId(), useId(), useId()] as const;
  const result = pattern && sample ? testLinkifier(pattern, template, sample) : null;
  async function submit(e: Event) {
    e.preventDefault();
    if (await save.run(() => settingsApi().addLinkifier(pattern, template))) {
      setPattern('');
      setTemplate('');
    }
  }
  return (
    <Section title="Add a linkifier">
      <form class="setting" onSubmit={submit}>
        <div class="setting-line">
          <span class="field grow">
            <label for={ids[0]}>Pattern</label>
            <input id={ids[0]} value={pattern} placeholder="#(?P<id>[0-9]+)" onInput={(e) => setPattern(e.currentTarget.value)} aria-describedby="linkifier-error" />
          </span>
          <span class="field grow">
            <label for={ids[1]}>URL template</label>
            <input id={ids[1]} value={template} placeholder="https://github.com/org/repo/issues/{id}" onInput={(e) => setTemplate(e.currentTarget.value)} aria-describedby="linkifier-error" />
          </span>
          <button type="submit" class="primary" disabled={!pattern || !template || save.busy}>
            Add linkifier
          </button>
        </div>
        <ErrorText id="linkifier-error" error={save.error} />
        <span class="field">
          <label for={ids[2]}>Test the pattern on sample text</label>
          <input id={ids[2]} value={sample} placeholder="Fixed in #123" onInput={(e) => setSample(e.currentTarget.value)} />
        </span>
        <div role="status" class="linkifier-test">
          {result === null ? null : typeof result === 'string' ? (
            <span class="setting-error">Invalid pattern: {result}</span>
          ) : result.length === 0 ? (
            'No match in the sample text.'
          ) : (
            <ul class="plain-list">
              {result.map((r, i) => (
                <li key={i}>
                  <code>{r.match}</code> → <span class="url">{r.url}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </form>
    </Section>
  );
}
