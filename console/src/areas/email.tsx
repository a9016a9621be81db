import type { ConsoleArea } from './area';

export const emailArea: ConsoleArea = {};
