/**
 * "Export key…" in the desktop app: the main process asks where with the system's save dialog and the
 * core writes there (the page never gets the secret, only the path and the address); cancelled, nothing
 * is written; unconfirmed, not even the dialog opens.
 */
import { describe, expect, it } from 'vitest';
import type { KeyExportView } from '../../../src-shared/contract/keys';
import type { OperatorApi } from '../../../src-shared/contract/operator-api';
import { exportKeyWithDialog } from '../export-key-dialog';

function fakes(savePath: string | null) {
  const dialogs: Record<string, unknown>[] = [];
  const exports: Parameters<OperatorApi['exportKey']>[0][] = [];
  const electron = {
    app: { getPath: (name: string) => `/home/operator/${name}` },
    dialog: {
      showSaveDialog: async (options: Record<string, unknown>) => {
        dialogs.push(options);
        return savePath === null ? { canceled: true, filePath: '' } : { canceled: false, filePath: savePath };
      },
    },
  } as unknown as Parameters<typeof exportKeyWithDialog>[0];
  const api = {
    exportKey: async (args: Parameters<OperatorApi['exportKey']>[0]): Promise<KeyExportView> => {
      exports.push(args);
      return {
        path: args.path,
        address: 'Keeper1111111111111111111111111111111111111',
        keyClass: args.cluster === 'mainnet-beta' ? 'mainnet-beta' : 'local',
      };
    },
  };
  return { electron, api, dialogs, exports };
}

describe('Export key… in the desktop app', () => {
  it('writes where the save dialog says, for the cluster asked', async () => {
    const { electron, api, dialogs, exports } = fakes('/media/usb/keeper.json');
    const saved = await exportKeyWithDialog(electron, api, { confirm: true, cluster: 'mainnet-beta' });
    expect(dialogs[0]).toMatchObject({
      title: 'Export the keeper key',
      defaultPath: '/home/operator/documents/wager-keeper-mainnet-beta-key.json',
    });
    expect(exports).toEqual([{ path: '/media/usb/keeper.json', confirm: true, cluster: 'mainnet-beta' }]);
    expect(saved).toEqual({
      path: '/media/usb/keeper.json',
      address: 'Keeper1111111111111111111111111111111111111',
      keyClass: 'mainnet-beta',
    });
  });

  it('writes nothing when the dialog is cancelled, and opens none unconfirmed', async () => {
    const cancelled = fakes(null);
    expect(await exportKeyWithDialog(cancelled.electron, cancelled.api, { confirm: true })).toBeNull();
    expect(cancelled.exports).toEqual([]);
    const unconfirmed = fakes('/tmp/k.json');
    await expect(
      exportKeyWithDialog(unconfirmed.electron, unconfirmed.api, { confirm: false } as never),
    ).rejects.toThrow(/confirm the export first/);
    expect(unconfirmed.dialogs).toEqual([]);
  });
});
