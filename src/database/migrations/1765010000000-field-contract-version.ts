import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A device type's field contract version: a counter the database raises in the same transaction as every insert,
 * update or delete of one of the type's field definitions. Readers on any replica cache a type's fields under the
 * version they were read at and compare it with the stored one (a primary-key read, usually inside a statement
 * they run anyway) to know whether their copy is current.
 */
export class FieldContractVersion1765010000000 implements MigrationInterface {
  name = 'FieldContractVersion1765010000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE device_types ADD COLUMN field_contract_version bigint NOT NULL DEFAULT 1`);
    await queryRunner.query(`
      CREATE FUNCTION device_field_contract_changed() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        UPDATE device_types SET field_contract_version = field_contract_version + 1
         WHERE device_type_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.device_type_id ELSE NEW.device_type_id END);
        IF TG_OP = 'UPDATE' AND OLD.device_type_id IS DISTINCT FROM NEW.device_type_id THEN
          UPDATE device_types SET field_contract_version = field_contract_version + 1 WHERE device_type_id = OLD.device_type_id;
        END IF;
        RETURN NULL;
      END
      $fn$
    `);
    await queryRunner.query(`
      CREATE TRIGGER device_field_contract_changed AFTER INSERT OR UPDATE OR DELETE ON device_field_definitions
        FOR EACH ROW EXECUTE FUNCTION device_field_contract_changed()
    `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER device_field_contract_changed ON device_field_definitions`);
    await queryRunner.query(`DROP FUNCTION device_field_contract_changed()`);
    await queryRunner.query(`ALTER TABLE device_types DROP COLUMN field_contract_version`);
  }
}
