import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { SourceFailure } from '../source/source-failure';

/** An accepted source address: `https://host[:port][/path]`, no trailing slash, query, fragment or user info. */
export interface SourceBase {
  readonly url: URL;
  /** `origin` + path without a trailing slash: what the pattern accepted. */
  readonly text: string;
}

/** Tests only: a local source on the loopback interface, any port, over plain http. */
const LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost):[0-9]{1,5}(\/[A-Za-z0-9._~/-]*)?$/;

const refused = (message: string) => ValidationFailedError.single('body.baseUrl', 'pattern', message);

/**
 * Which legacy addresses an import may call: the one configured https pattern (plus loopback http in tests). The
 * pattern is checked on the address as sent and as parsed, and again on every URL actually requested, so neither
 * an address that parses differently from how it reads nor a source id such as `..` can lead a call elsewhere.
 */
export class BaseUrlPolicy {
  constructor(
    private readonly pattern: RegExp | null,
    private readonly allowHttpLoopback: boolean,
  ) {}

  /** The accepted base of `raw`, else 400 `body.baseUrl` `pattern`. */
  accept(raw: string): SourceBase {
    if (!this.pattern && !this.allowHttpLoopback) {
      throw refused('No legacy import source is configured on this installation (LEGACY_IMPORT_BASE_URL_PATTERN).');
    }
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw ValidationFailedError.single('body.baseUrl', 'format', 'baseUrl must be an absolute URL.');
    }
    if (url.username || url.password || url.search || url.hash) {
      throw refused('baseUrl must not carry user info, a query or a fragment.');
    }
    const text = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    if (!this.admits(raw.replace(/\/+$/, '')) || !this.admits(text)) {
      throw refused('baseUrl is not the accepted address of the legacy system’s API.');
    }
    return { url: new URL(text), text };
  }

  /** The URL of a call below `base`, checked again against the pattern; a path that escapes the base is the source's fault. */
  requestUrl(base: SourceBase, relative: string): string {
    const url = new URL(`${base.text}/${relative}`);
    const basePath = base.url.pathname.replace(/\/+$/, '');
    const requestedBase = `${url.origin}${url.pathname.slice(0, basePath.length)}`;
    const below = url.pathname.startsWith(`${basePath}/`) && !url.username && !url.password;
    if (!below || url.origin !== base.url.origin || !this.admits(requestedBase)) {
      throw new SourceFailure('source_invalid_response', 'The source named a record whose address leaves the accepted one.');
    }
    return url.href;
  }

  private admits(text: string): boolean {
    if (this.pattern?.test(text)) return true;
    return this.allowHttpLoopback && LOOPBACK.test(text);
  }
}
