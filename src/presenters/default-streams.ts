// Default streams and default stream groups, as the register snapshot and events show them.
import type { DefaultStreamGroupRow } from '../db/queries/default-streams.ts';
import type { Stream } from '../db/schema.ts';
import { presentStream, type StreamJson } from './stream.ts';

export const presentDefaultStreams = (streams: Stream[]): StreamJson[] => streams.map((s) => presentStream(s, null));

export function presentDefaultStreamGroup(g: DefaultStreamGroupRow): { id: number; name: string; description: string; streams: StreamJson[] } {
  return { id: g.id, name: g.name, description: g.description, streams: presentDefaultStreams(g.streams) };
}
