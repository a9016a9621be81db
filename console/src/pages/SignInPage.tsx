import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../api/errors';
import { useSession } from '../auth/session';
import { ErrorBox } from '../components/status';

/** Sign-in: one generic failure message (the API never says which part was wrong) and the 429 countdown. */
export function SignInPage({ expired }: { expired: boolean }) {
  const { signIn } = useSession();
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    if (retryAt === null) return;
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= retryAt) setRetryAt(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [retryAt]);

  const waiting = retryAt !== null ? Math.max(0, Math.ceil((retryAt - now) / 1000)) : 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(identifier, password);
    } catch (failure) {
      setError(failure);
      if (failure instanceof ApiError && failure.status === 429 && failure.retryAfterSeconds !== null) {
        setNow(Date.now());
        setRetryAt(Date.now() + failure.retryAfterSeconds * 1000);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="center">
      <form className="card narrow" onSubmit={(event) => void submit(event)} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Uplink</h1>
        {expired ? <p className="notice">Your session has ended. Sign in again.</p> : null}
        <label>
          Username or e-mail
          <input name="identifier" autoComplete="username" required value={identifier} onChange={(event) => setIdentifier(event.target.value)} />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        {error && waiting === 0 ? <ErrorBox error={error} /> : null}
        {waiting > 0 ? (
          <p className="error" role="alert">
            Too many attempts. Try again in <span data-testid="retry-countdown">{waiting}</span> s.
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={busy || waiting > 0}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
