// The heading ids of a Markdown page, as VitePress 1.6 makes them (its `slugify`).
import { readFileSync } from 'node:fs';

const rCombining = /[\u0300-\u036F]/g;
const rSpecial = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
export const slugify = (text: string) =>
  text.normalize('NFKD').replace(rCombining, '').replace(/[\u0000-\u001f]/g, '').replace(rSpecial, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '').replace(/^(\d)/, '_$1').toLowerCase();

/** The heading ids of a page, outside code blocks. */
export function headingIds(path: string): Set<string> {
  const ids = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6} (.+)$/.exec(line);
    if (heading) ids.add(slugify(heading[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  }
  return ids;
}
