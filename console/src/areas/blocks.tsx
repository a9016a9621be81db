import type { ConsoleArea } from './area';

export const blocksArea: ConsoleArea = {};
