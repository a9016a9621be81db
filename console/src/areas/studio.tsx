import type { ConsoleArea } from './area';

export const studioArea: ConsoleArea = {};
