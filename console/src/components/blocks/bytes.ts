/** Bytes typed as hex (spaces, colons and a 0x prefix allowed) or base64, for a codec's input. */
export type ByteEncoding = 'hex' | 'base64';

export function parseBytes(text: string, encoding: ByteEncoding): { bytes: number[] } | { error: string } {
  const trimmed = text.trim();
  if (encoding === 'hex') {
    const digits = trimmed.replace(/^0x/i, '').replace(/[\s:-]/g, '');
    if (!/^[0-9a-fA-F]*$/.test(digits)) return { error: 'Hex may only hold the digits 0-9 and A-F (spaces and colons are ignored).' };
    if (digits.length % 2 !== 0) return { error: 'Hex needs two digits per byte.' };
    const bytes: number[] = [];
    for (let index = 0; index < digits.length; index += 2) bytes.push(parseInt(digits.slice(index, index + 2), 16));
    return { bytes };
  }
  const compact = trimmed.replace(/\s/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) return { error: 'This is not base64.' };
  try {
    const binary = atob(compact.padEnd(Math.ceil(compact.length / 4) * 4, '='));
    return { bytes: [...binary].map((character) => character.charCodeAt(0)) };
  } catch {
    return { error: 'This is not base64.' };
  }
}

export function toHex(bytes: readonly number[], separator = ' '): string {
  return bytes.map((byte) => byte.toString(16).padStart(2, '0').toUpperCase()).join(separator);
}

export function base64ToBytes(data: string): number[] {
  const parsed = parseBytes(data, 'base64');
  return 'bytes' in parsed ? parsed.bytes : [];
}

/** A raw payload as the API stores it (`base64`, `hex`, `utf8`, `json`) as bytes, when it is binary. */
export function payloadBytes(payload: { encoding: string; data: string }): number[] | null {
  if (payload.encoding === 'base64') return base64ToBytes(payload.data);
  if (payload.encoding === 'hex') {
    const parsed = parseBytes(payload.data, 'hex');
    return 'bytes' in parsed ? parsed.bytes : null;
  }
  return null;
}

/** Lines of 16 bytes: offset, hex, printable ASCII (a dot for the rest), as a classic hex dump. */
export function hexDump(bytes: readonly number[]): string {
  const lines: string[] = [];
  for (let offset = 0; offset < bytes.length; offset += 16) {
    const chunk = bytes.slice(offset, offset + 16);
    const hex = toHex(chunk).padEnd(16 * 3 - 1, ' ');
    const ascii = chunk.map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
    lines.push(`${offset.toString(16).padStart(8, '0')}  ${hex}  ${ascii}`);
  }
  return lines.join('\n');
}
