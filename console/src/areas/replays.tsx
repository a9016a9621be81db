import type { ConsoleArea } from './area';

export const replaysArea: ConsoleArea = {};
