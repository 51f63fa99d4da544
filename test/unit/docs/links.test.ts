/**
 * Every link of README.md and docs/*.md resolves: a relative link names a file (or folder) of the repository, and a
 * link with an anchor names a heading of its target page (GitHub's heading slugs). Links to ../shared/ name material
 * outside the repository and are left out; absolute URLs are not fetched (no network in tests).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');

/** GitHub's anchor of a heading: lower case, punctuation dropped (but `-` and `_`), spaces to `-`. */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const match = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (match?.[1] === undefined) continue;
    const slug = headingSlug(match[1]);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const explicit of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) if (explicit[1] !== undefined) anchors.add(explicit[1]);
  return anchors;
}

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

function linksOf(file: string): Link[] {
  const links: Link[] = [];
  let fenced = false;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
      if (fenced) return;
      const withoutCode = text.replace(/`[^`]*`/g, '');
      for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) if (match[1] !== undefined) links.push({ file, line: index + 1, target: match[1] });
    });
  return links;
}

function brokenReason(link: Link): string | null {
  const { target } = link;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const [path = '', anchor] = target.split('#', 2);
  const resolved = path === '' ? join(ROOT, link.file) : resolve(dirname(join(ROOT, link.file)), decodeURIComponent(path));
  const inRepo = relative(ROOT, resolved);
  if (inRepo.startsWith('..')) return inRepo.startsWith(join('..', 'shared')) ? null : `points outside the repository (${inRepo})`;
  if (!existsSync(resolved)) return `no such file ${inRepo}`;
  if (anchor === undefined || anchor === '' || statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return null;
  return anchorsOf(readFileSync(resolved, 'utf8')).has(anchor.toLowerCase()) ? null : `no heading #${anchor} in ${inRepo}`;
}

const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('documentation links', () => {
  it('slugs headings as GitHub does', () => {
    expect(headingSlug('Markets that roll every hour')).toBe('markets-that-roll-every-hour');
    expect(headingSlug('Going live: five steps')).toBe('going-live-five-steps');
    expect(headingSlug('`backtest --replay` and the report')).toBe('backtest---replay-and-the-report');
    expect(headingSlug('Capital: free, locked & redeemed (USDC)')).toBe('capital-free-locked--redeemed-usdc');
  });

  it('finds a broken file link and a broken anchor', () => {
    expect(brokenReason({ file: 'README.md', line: 1, target: 'docs/no-such-page.md' })).toMatch(/no such file/);
    expect(brokenReason({ file: 'README.md', line: 1, target: 'docs/architecture.md#no-such-heading' })).toMatch(/no heading/);
    expect(brokenReason({ file: 'README.md', line: 1, target: 'docs/architecture.md' })).toBeNull();
  });

  it.each(PAGES)('every link of %s resolves', (page) => {
    const broken = linksOf(page).flatMap((link) => {
      const reason = brokenReason(link);
      return reason === null ? [] : [`${link.file}:${link.line} ${link.target}: ${reason}`];
    });
    expect(broken).toEqual([]);
  });
});
