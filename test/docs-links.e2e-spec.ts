import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { INTRODUCTION } from '../src/openapi/introduction';

/*
 * README.md and docs/*.md link to each other by relative paths and `#anchors`. A moved section or a renamed heading
 * must fail here, not on a reader. Anchors follow GitHub's rules (github-slugger): the heading's text in lower
 * case, punctuation dropped, each space a hyphen, and `-1`, `-2`, ... on repeated headings.
 */

const ROOT = resolve(__dirname, '..');
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The page's text outside fenced code blocks, line by line. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** GitHub's anchor of a heading's text. */
export function slugOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text only
    .replace(/<[^>]+>/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a page, with GitHub's numbering of repeated headings. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative link targets of a page (`path`, `path#anchor` or `#anchor`), outside code. */
function linksOf(markdown: string): string[] {
  const links: string[] = [];
  for (const line of proseLines(markdown)) {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push(target);
    }
  }
  return links;
}

describe('documentation links', () => {
  it('reads README and the topic pages', () => {
    expect(PAGES).toEqual(expect.arrayContaining(['README.md', 'docs/walkthrough.md', 'docs/configuration.md', 'docs/architecture.md']));
  });

  it.each(PAGES)('%s: every relative link and anchor resolves', (page) => {
    const markdown = readFileSync(join(ROOT, page), 'utf8');
    const broken: string[] = [];
    for (const link of linksOf(markdown)) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
      if (!existsSync(target)) {
        broken.push(`${link}: no file ${relative(ROOT, target)}`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor)) {
        broken.push(`${link}: no heading with the anchor #${anchor} in ${relative(ROOT, target)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('links every topic page from README', () => {
    const linked = new Set(linksOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((link) => link.split('#')[0]));
    expect(PAGES.filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });

  it('names only pages that exist in the OpenAPI introduction, and names every topic page', () => {
    const named = [...INTRODUCTION.matchAll(/`((?:docs\/[\w.-]+|README)\.md)`/g)].map((match) => match[1]!);
    expect(named.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
    expect(PAGES.filter((page) => !named.includes(page))).toEqual([]);
  });

  it('computes GitHub anchors', () => {
    expect(slugOf('Behind a proxy, Kubernetes, probes and scaling')).toBe('behind-a-proxy-kubernetes-probes-and-scaling');
    expect(slugOf('Why NestJS 11 and not 12.')).toBe('why-nestjs-11-and-not-12');
    expect(slugOf('`bench:flows` and the [engine](flows.md)')).toBe('benchflows-and-the-engine');
    expect(slugOf('Optimistic concurrency: ETag and If-Match')).toBe('optimistic-concurrency-etag-and-if-match');
  });
});
