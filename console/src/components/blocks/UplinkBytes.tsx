import { useState } from 'react';
import { parseBytes, toHex, type ByteEncoding } from './bytes';
import { parsePort } from './sample';

/** An uplink's bytes (typed as hex or base64) and fPort as a codec's sample or run input is made of them. */
export function useUplinkBytes(initial: { bytes: string; fPort: string } | null) {
  const [text, setText] = useState(initial?.bytes ?? '');
  const [encoding, setEncoding] = useState<ByteEncoding>('hex');
  const [fPort, setFPort] = useState(initial?.fPort ?? '1');
  const parsed = parseBytes(text, encoding);
  return {
    text,
    setText,
    encoding,
    setEncoding,
    fPort,
    setFPort,
    parsed,
    /** Shows a stored message's payload as hex, and its fPort when it has one. */
    fill(bytes: readonly number[], port: number | undefined) {
      setEncoding('hex');
      setText(toHex(bytes));
      if (port !== undefined) setFPort(String(port));
    },
    /** The payload and the `input` envelope (fPort, and `observedAt` when given); throws on unreadable bytes or port. */
    message(observedAt: string): { payload: number[]; input: Record<string, unknown> } {
      if ('error' in parsed) throw new Error(parsed.error);
      const input: Record<string, unknown> = { connectionData: { fPort: parsePort(fPort) } };
      if (observedAt) input.observedAt = observedAt;
      return { payload: parsed.bytes, input };
    },
  };
}

export type UplinkBytes = ReturnType<typeof useUplinkBytes>;

/** The bytes, their encoding and the fPort side by side, with a line saying what the bytes read as. */
export function UplinkBytesFields({ bytes, helpId, labels }: { bytes: UplinkBytes; helpId: string; labels: { bytes: string; encoding: string; fPort: string } }) {
  const { parsed } = bytes;
  return (
    <>
      <div className="grid3">
        <label>
          {labels.bytes}
          <input
            value={bytes.text}
            onChange={(event) => bytes.setText(event.target.value)}
            aria-invalid={'error' in parsed}
            aria-describedby={helpId}
            spellCheck={false}
          />
        </label>
        <label>
          {labels.encoding}
          <select value={bytes.encoding} onChange={(event) => bytes.setEncoding(event.target.value as ByteEncoding)}>
            <option value="hex">hex</option>
            <option value="base64">base64</option>
          </select>
        </label>
        <label>
          {labels.fPort}
          <input inputMode="numeric" value={bytes.fPort} onChange={(event) => bytes.setFPort(event.target.value)} />
        </label>
      </div>
      <p id={helpId} className="small" aria-live="polite">
        {'error' in parsed ? parsed.error : `${parsed.bytes.length} bytes: ${toHex(parsed.bytes) || '(none)'}`}
      </p>
    </>
  );
}
