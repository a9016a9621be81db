import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to="/">Go to the start page</Link>.
      </p>
    </section>
  );
}
