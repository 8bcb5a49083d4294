// Locates the package's root folder (where package.json and schemas/ live), whether the code
// runs compiled from dist/ or from src/.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`volunteer-scheduler: cannot find the package root above ${start}`);
    dir = parent;
  }
}

export const packageRoot = findRoot(dirname(fileURLToPath(import.meta.url)));
export const schemaDir = join(packageRoot, 'schemas');
