import { lazy, Suspense, useState } from 'react';
import { KeyOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';

// The dialog and its texts load when the customer first opens it.
const RedeemDialog = lazy(() =>
  import('./redeem-dialog.tsx').then((module) => ({ default: module.RedeemDialog })),
);

/** "Redeem a code", beside the trial in the console's side panel, and the dialog it opens. */
export function RedeemButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        block
        icon={<KeyOutlined />}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        {t('actions.redeemCode')}
      </Button>
      {used && (
        <Suspense fallback={null}>
          <RedeemDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
