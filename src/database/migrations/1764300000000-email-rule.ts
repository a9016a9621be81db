import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users.email` takes exactly the e-mail rule the API validates (the HTML "valid e-mail address" syntax; a
 * dotless domain such as the development default `admin@localhost` is one), instead of the looser "no @ or
 * whitespace around one @": a value the API accepts is never refused by the database, and a value written any
 * other way cannot break the rule either.
 * NOT VALID: rows written before this migration are not re-checked (they passed the API's older, stricter
 * validator or the looser CHECK); every insert and update is.
 */
export class EmailRule1764300000000 implements MigrationInterface {
  name = 'EmailRule1764300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE users
        DROP CONSTRAINT users_email_check,
        ADD CONSTRAINT users_email_check CHECK (
          email ~ '^[A-Za-z0-9.!#$%&''*+/=?^_\`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$'
        ) NOT VALID`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE users
        DROP CONSTRAINT users_email_check,
        ADD CONSTRAINT users_email_check CHECK (email ~ '^[^@\\s]+@[^@\\s]+$') NOT VALID`);
  }
}
