/**
 * The Content Security Policy of the dashboard page, without `'unsafe-inline'`: its inline
 * `<script>` and `<style>` blocks are allowed by their SHA-256 hashes, nothing else runs or loads,
 * requests go to its own origin only, and no other page may frame it.
 */

const BLOCKS = /<(script|style)>([\s\S]*?)<\/\1>/g;

async function sha256(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let binary = '';
  for (const byte of digest) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}

/** The policy of a page: its inline blocks (`<script>`, `<style>` without attributes) by hash. */
export async function pageContentSecurityPolicy(page: string): Promise<string> {
  const scripts: string[] = [];
  const styles: string[] = [];
  for (const [, tag, body] of page.matchAll(BLOCKS)) (tag === 'script' ? scripts : styles).push(await sha256(body ?? ''));
  const list = (hashes: string[]): string => (hashes.length === 0 ? "'none'" : hashes.join(' '));
  return [
    "default-src 'none'",
    `script-src ${list(scripts)}`,
    `style-src ${list(styles)}`,
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The headers of the dashboard page beside its policy. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
});
