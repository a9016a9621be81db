import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import type { Browser, BrowserContext, ConsoleMessage, Page, Request, Response } from 'playwright-core';

/** Where the browser tests save a screenshot of every page they check (git-ignored; CI keeps it as an artifact). */
export const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts', 'console');

/**
 * The Chromium of the browser tests comes from the npm registry: `@sparticuz/chromium` ships a headless build in the
 * package (unpacked to the temp folder on first use), so `npm ci` is all a fresh clone needs. A browser that cannot
 * be found or started fails the test with what to do, never skips it.
 */
export async function launchBrowser(): Promise<Browser> {
  let executablePath: string;
  let args: string[];
  try {
    // The package is an ES module, which Jest's module system cannot load: Node unpacks it in a child process.
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', UNPACK], { cwd: join(__dirname, '..', '..'), timeout: 60_000 });
    const packaged = JSON.parse(stdout) as { executablePath: string; args: string[] };
    executablePath = packaged.executablePath;
    // Its Lambda defaults minus the ones that would weaken what the tests check (same-origin rules, mixed content)
    // or make several contexts share one process.
    const dropped = new Set(['--disable-web-security', '--allow-running-insecure-content', '--single-process']);
    args = packaged.args.filter((arg) => !dropped.has(arg) && !arg.startsWith('--headless'));
  } catch (error) {
    throw new Error(
      `No browser for the console tests: the Chromium of the npm package @sparticuz/chromium could not be unpacked (${String(error)}). ` +
        'Run `npm ci` (it installs the package with its browser) and make sure the temp folder is writable.',
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  try {
    return await chromium.launch({ executablePath, args, headless: true });
  } catch (error) {
    throw new Error(`The console tests' Chromium (${executablePath}) did not start: ${String(error)}`);
  }
}

const UNPACK = `import('@sparticuz/chromium').then(async ({ default: chromium }) => {
  process.stdout.write(JSON.stringify({ executablePath: await chromium.executablePath(), args: chromium.args }));
})`;

/**
 * A page that records every console error, uncaught exception, failed request and error answer; `expectClean()`
 * fails the test on any the test did not announce with `expect()`.
 */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Announces answers (status and path pattern) or console messages the next steps will cause on purpose. */
  allow(pattern: RegExp): void;
  problems(): string[];
  expectClean(): void;
  close(): Promise<void>;
}

export async function watchedPage(browser: Browser, baseUrl: string, viewport = { width: 1280, height: 900 }): Promise<WatchedPage> {
  // An explicit locale: the packaged Chromium derives one from the environment, and `en-US@posix` (LANG=C) breaks Intl.
  const context = await browser.newContext({ baseURL: baseUrl, viewport, locale: 'en-GB', timezoneId: 'UTC' });
  const page = await context.newPage();
  const allowed: RegExp[] = [];
  const seen: string[] = [];
  const note = (text: string) => {
    if (!allowed.some((pattern) => pattern.test(text))) seen.push(text);
  };
  page.on('console', (message: ConsoleMessage) => {
    // The browser logs every 4xx/5xx fetch as a console error; those are judged by their response below.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) note(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error: Error) => note(`uncaught: ${error.message}`));
  page.on('requestfailed', (request: Request) => note(`request failed: ${request.method()} ${new URL(request.url()).pathname} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response: Response) => {
    if (response.status() >= 400) note(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  return {
    page,
    context,
    allow: (pattern) => allowed.push(pattern),
    problems: () => [...seen],
    expectClean: () => {
      expect(seen).toEqual([]);
    },
    close: () => context.close(),
  };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

let axeSource: string | null = null;

/** axe-core's serious and critical violations of the page as it is now (rule id and the first offending nodes). */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a <script> tag would be refused).
  await page.evaluate(axeSource);
  // Strings, not functions: the tests compile without the DOM library, and these run in the page.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
  })))`)) as { id: string; impact: string; targets: string[] }[];
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id} (${violation.impact}): ${violation.targets.join(', ')}`);
}

/**
 * What sticks out to the right of the viewport (a horizontal scroll of the whole page): the outermost such
 * elements, as `tag.class` paths, or [] when nothing does.
 */
export async function overflowsHorizontally(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    if (document.documentElement.scrollWidth <= window.innerWidth + 1) return [];
    const name = (element) => element.tagName.toLowerCase() + (typeof element.className === 'string' && element.className ? '.' + element.className.split(' ').join('.') : '');
    const wide = [...document.body.querySelectorAll('*')].filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1);
    const outermost = wide.filter((element) => !wide.includes(element.parentElement));
    return outermost.slice(0, 5).map((element) => {
      const path = [];
      for (let at = element; at && at !== document.body; at = at.parentElement) path.unshift(name(at));
      return path.join(' > ') + ' (right edge ' + Math.round(element.getBoundingClientRect().right) + 'px)';
    });
  })()`)) as string[];
}

/** The widths every checked page must fit without a horizontal scroll: a phone, a tablet, a small and a wide laptop. */
export const CHECKED_WIDTHS = [390, 768, 1024, 1440] as const;

/** Checks one page at a time: axe, no horizontal overflow at each checked width, a screenshot. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await accessibilityViolations(page)).toEqual([]);
  const wide = page.viewportSize();
  for (const width of CHECKED_WIDTHS) {
    await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
    await page.waitForTimeout(100);
    const overflow = await overflowsHorizontally(page);
    if (overflow.length > 0) await screenshot(page, `${name}-${width}px-overflow`);
    expect({ page: name, width, overflow }).toEqual({ page: name, width, overflow: [] });
    if (width === 390) await screenshot(page, `${name}-390px`);
  }
  if (wide) await page.setViewportSize(wide);
}
