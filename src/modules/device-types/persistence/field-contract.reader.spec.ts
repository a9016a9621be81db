import type { DataSource, EntityManager } from 'typeorm';
import { FieldContractReader } from './field-contract.reader';

/** A manager answering the reader's statements from an in-memory catalog, counting them. */
function fakeManager() {
  const state = {
    version: '1',
    fields: [{ deviceFieldDefinitionId: 'f1', fieldNo: 11, deviceTypeId: 't1', key: 'level', schemaRef: 'platform://schemas/number/v1', storageTargets: ['current'], status: 'active' }],
    queries: [] as string[],
  };
  const manager = {
    query: (sql: string) => {
      state.queries.push(sql);
      if (sql.includes('LEFT JOIN device_field_definitions')) {
        return Promise.resolve(state.fields.length ? state.fields.map((field) => ({ version: state.version, ...field })) : [{ version: state.version }]);
      }
      if (sql.includes('WHERE field_no = ANY')) return Promise.resolve(state.fields.map((field) => ({ field_no: field.fieldNo, device_type_id: field.deviceTypeId })));
      return Promise.resolve([{ version: state.version }]);
    },
  } as unknown as EntityManager;
  return { state, manager };
}

describe('FieldContractReader', () => {
  it('answers from its cache while the version a caller read is the cached one: no query', async () => {
    const { state, manager } = fakeManager();
    const reader = new FieldContractReader({ manager } as unknown as DataSource);
    const first = await reader.at('t1', '1');
    expect(first.fieldNos.get('level')).toBe(11);
    const before = state.queries.length;
    for (let i = 0; i < 100; i++) expect(await reader.at('t1', '1')).toBe(first);
    expect(state.queries.length).toBe(before);
  });

  it('reads the contract again when the version moved', async () => {
    const { state, manager } = fakeManager();
    const reader = new FieldContractReader({ manager } as unknown as DataSource);
    await reader.at('t1', '1');
    state.version = '2';
    state.fields.push({ deviceFieldDefinitionId: 'f2', fieldNo: 12, deviceTypeId: 't1', key: 'battery', schemaRef: 'platform://schemas/number/v1', storageTargets: ['timeseries'], status: 'active' });
    const second = await reader.current('t1');
    expect(second.version).toBe('2');
    expect([...second.fieldNos.keys()]).toEqual(['level', 'battery']);
  });

  it('maps field numbers to their types once, then serves their contracts from the cache until forgotten', async () => {
    const { state, manager } = fakeManager();
    const reader = new FieldContractReader({ manager } as unknown as DataSource);
    const [contract] = await reader.ofFieldNos([11, 11, 99]);
    expect(contract!.deviceTypeId).toBe('t1');
    const before = state.queries.length;
    expect(await reader.ofFieldNos([11])).toEqual([contract]);
    expect(state.queries.length).toBe(before);
    reader.forget(['t1']);
    await reader.ofFieldNos([11]);
    expect(state.queries.length).toBe(before + 1);
  });
});
