import { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';

/** What the sink does with the next message: accept it, answer 451 or 550, or cut the connection mid-DATA. */
export type SinkAnswer = 'accept' | 'tempfail' | 'reject' | 'drop';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[];
  from: string;
  messageId: string;
  subject: string;
  text: string;
  html: string | null;
  /** Raw header lines, to check that no value added a header. */
  headerLines: string[];
}

export interface SmtpSink {
  port: number;
  url: string;
  /** Messages the sink accepted, in order. */
  received: ReceivedMail[];
  /** DATA attempts of every answer, in order. */
  attempts: SinkAnswer[];
  /** The answer to each next message; `accept` once `plan` is used up (see `answer`). */
  plan: SinkAnswer[];
  /** The answer when `plan` is empty. */
  answer: SinkAnswer;
  /** Called once an accepted message is parsed, before the 250 is sent. */
  onAccepted?: (mail: ReceivedMail) => void | Promise<void>;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process (smtp-server, no TLS, any login accepted) that stores what it accepts
 * (parsed by mailparser) and answers as the test says.
 */
export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const sink: SmtpSink = {
    port: 0,
    url: '',
    received: [],
    attempts: [],
    plan: [],
    answer: 'accept',
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server: SMTPServer = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback: (error?: Error | null) => void) {
      const answer = sink.plan.shift() ?? sink.answer;
      sink.attempts.push(answer);
      if (answer === 'drop') {
        stream.once('data', () => {
          const connections = (server as unknown as { connections: Set<{ session: SMTPServerSession; _socket: { destroy(): void } }> }).connections;
          for (const connection of connections) if (connection.session?.id === session.id) connection._socket.destroy();
        });
        stream.resume();
        return;
      }
      void simpleParser(stream)
        .then(async (parsed) => {
          if (answer === 'tempfail') return callback(Object.assign(new Error('4.3.0 Mailbox busy, try again later'), { responseCode: 451 }));
          if (answer === 'reject') return callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            messageId: parsed.messageId ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            headerLines: parsed.headerLines.map((line) => line.line),
          };
          sink.received.push(mail);
          await sink.onAccepted?.(mail);
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  sink.port = (server.server.address() as AddressInfo).port;
  sink.url = `smtp://127.0.0.1:${sink.port}`;
  return sink;
}
