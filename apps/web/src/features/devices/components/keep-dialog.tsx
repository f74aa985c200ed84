import { useState } from 'react';
import { Checkbox, Modal, Space } from 'antd';
import type { Device } from '@skyway/shared/devices';
import { useTranslation } from 'react-i18next';
import { DIALOG_WIDTH } from '../../../components/dialog-width.ts';
import { MESSAGE_SECONDS, showSuccess } from '../../../lib/toast.ts';
import { useKeepDevices } from '../api/devices.ts';
import { useDeviceName } from './device-name.ts';

interface Props {
  devices: Device[];
  /** How many the subscription covers once the downgrade applies. */
  count: number;
  onClose: () => void;
}

/**
 * Before a downgrade applies, the customer picks the slots to keep (at most the new connections);
 * the server puts them first, so that they are the ones still working afterwards.
 */
export function KeepDialog({ devices, count, onClose }: Props) {
  const { t } = useTranslation('devices');
  const keep = useKeepDevices();
  const deviceName = useDeviceName();
  // The lowest positions are kept unless the customer says otherwise: those are ticked first.
  const [chosen, setChosen] = useState(() => devices.slice(0, count).map((device) => device.id));

  async function save() {
    try {
      await keep.mutateAsync(devices.filter((device) => chosen.includes(device.id)).map((d) => d.id));
      showSuccess(t('keep.saved'), MESSAGE_SECONDS);
      onClose();
    } catch {
      // The api client has shown the server's message.
    }
  }

  return (
    <Modal
      open
      width={DIALOG_WIDTH}
      title={t('keep.title')}
      okText={t('keep.save')}
      okButtonProps={{ disabled: chosen.length === 0 }}
      confirmLoading={keep.isPending}
      onOk={() => void save()}
      onCancel={onClose}
    >
      <p>{t('keep.hint', { count })}</p>
      <Checkbox.Group value={chosen} onChange={(ids) => setChosen(ids)}>
        <Space orientation="vertical">
          {devices.map((device) => (
            <Checkbox
              key={device.id}
              value={device.id}
              disabled={!chosen.includes(device.id) && chosen.length >= count}
            >
              {deviceName(device)}
            </Checkbox>
          ))}
        </Space>
      </Checkbox.Group>
    </Modal>
  );
}
