import { useState, type FormEvent } from 'react';
import { useSession } from '../auth/session';
import { ErrorBox } from '../components/status';

/** The forced change after a temporary password, and the voluntary one from the account page. */
export function ChangePasswordPage({ forced = false }: { forced?: boolean }) {
  const { changePassword, logout } = useSession();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (newPassword !== repeat) return setError(new Error('The new passwords do not match.'));
    setBusy(true);
    try {
      await changePassword(currentPassword, newPassword);
      setDone(true);
      setCurrent('');
      setNew('');
      setRepeat('');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const form = (
    <form className="card narrow" onSubmit={(event) => void submit(event)} aria-labelledby="change-password-title">
      <h1 id="change-password-title">{forced ? 'Choose a new password' : 'Change your password'}</h1>
      {forced ? <p>Your password was set by an administrator or is a one-time password. Choose your own to continue.</p> : null}
      <label>
        Current password
        <input type="password" autoComplete="current-password" required value={currentPassword} onChange={(event) => setCurrent(event.target.value)} />
      </label>
      <label>
        New password (at least 12 characters)
        <input type="password" autoComplete="new-password" minLength={12} required value={newPassword} onChange={(event) => setNew(event.target.value)} />
      </label>
      <label>
        New password again
        <input type="password" autoComplete="new-password" minLength={12} required value={repeat} onChange={(event) => setRepeat(event.target.value)} />
      </label>
      {error ? <ErrorBox error={error} /> : null}
      {done && !forced ? <p className="notice">Password changed.</p> : null}
      <div className="row">
        <button type="submit" className="primary" disabled={busy}>
          Change password
        </button>
        {forced ? (
          <button type="button" onClick={() => void logout()}>
            Sign out
          </button>
        ) : null}
      </div>
    </form>
  );
  return forced ? <main className="center">{form}</main> : form;
}
