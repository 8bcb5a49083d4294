import { expect } from 'chai';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.js';

describe('volunteer-scheduler keys', function () {
  this.timeout(30_000);
  const env = { DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'vs-keys-')), 'keys.db')}`, DEFAULT_DAILY_QUOTA: '250' };

  it('issue prints the complete key alone on stdout, messages on stderr', async () => {
    const r = await runCli(['keys', 'issue', '--user', 'clinic-7', '--name', 'Riverside Clinic', '--description', 'nurse rota'], env);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^clinic-7\.[A-Za-z0-9_-]{43}\n$/);
    expect(r.stderr).to.include("Issued a key for 'clinic-7' (Riverside Clinic), daily quota 250.");
  });

  it('list shows users without signatures; set-quota and revoke change them', async () => {
    const issued = await runCli(['keys', 'issue', '--user', 'shelter', '--name', 'Night Shelter', '--description', 'beds', '--quota', '40'], env);
    const signature = issued.stdout.trim().split('.')[1]!;
    expect((await runCli(['keys', 'set-quota', '--user', 'shelter', '--quota', '80'], env)).code).to.equal(0);
    expect((await runCli(['keys', 'revoke', '--user', 'shelter'], env)).code).to.equal(0);
    const list = await runCli(['keys', 'list'], env);
    expect(list.code).to.equal(0);
    expect(list.stdout).to.not.include(signature);
    const row = list.stdout.split('\n').find((l) => l.startsWith('shelter\t'))!;
    expect(row.split('\t').slice(0, 4)).to.deep.equal(['shelter', 'Night Shelter', 'beds', '80']);
    expect(row).to.match(/\trevoked \d{4}-/);
    const again = await runCli(['keys', 'revoke', '--user', 'shelter'], env);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.include("no active key for user 'shelter'");
  });

  it('refuses bad arguments with exit 2 and the usage', async () => {
    const badUser = await runCli(['keys', 'issue', '--user', 'has space', '--name', 'x', '--description', 'y'], env);
    expect(badUser.code).to.equal(2);
    expect(badUser.stderr).to.include("--user 'has space' is not a valid user id");
    const noName = await runCli(['keys', 'issue', '--user', 'ok'], env);
    expect(noName.code).to.equal(2);
    expect(noName.stderr).to.include('--name is required');
    const badQuota = await runCli(['keys', 'set-quota', '--user', 'ok', '--quota', 'lots'], env);
    expect(badQuota.code).to.equal(2);
    expect((await runCli(['keys', '--help'], env)).stdout).to.match(/^Usage: volunteer-scheduler keys/);
  });
});
