import { ValidateBy } from 'class-validator';

/*
 * The one e-mail rule, checked by the validation pipe and by the `users.email` CHECK constraint with the same
 * pattern (the migration that installs it holds the same text; a test compares both): the HTML "valid e-mail
 * address" syntax (a dotless domain such as `admin@localhost` included). No quoted local parts, no spaces, no
 * comments, no IP literals.
 */
export const EMAIL_PATTERN_SOURCE =
  "^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$";
export const EMAIL_PATTERN = new RegExp(EMAIL_PATTERN_SOURCE);

export const EmailAddress = (property: string): PropertyDecorator =>
  ValidateBy({
    name: 'format',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && EMAIL_PATTERN.test(value),
      defaultMessage: () => `${property} must be an e-mail address such as name@example.com (no spaces or quotes).`,
    },
  });
