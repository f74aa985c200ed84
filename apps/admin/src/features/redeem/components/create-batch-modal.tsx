import { DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, InputNumber, Modal, Radio, Result, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERIOD_NAMES } from '@skyway/shared/plans';
import { REDEEM_BATCH_MAX, REDEEM_DAYS_MAX } from '@skyway/shared/redeem-codes';
import { saveFile } from '../../../lib/download.ts';
import { createBatch, type RedeemBatch, type RedeemBatchCreateBody } from '../api/redeem-batches.ts';

interface Fields {
  name: string;
  note?: string;
  count: number;
  kind: 'plan' | 'days';
  period: (typeof PERIOD_NAMES)[number];
  connections: number;
  days: number;
}

const bodyOf = (fields: Fields): RedeemBatchCreateBody => ({
  name: fields.name,
  note: fields.note ?? '',
  count: fields.count,
  grant:
    fields.kind === 'plan'
      ? { kind: 'plan', period: fields.period, connections: fields.connections }
      : { kind: 'days', days: fields.days },
});

/** The file's name: the batch's name, made safe for a file system. */
const fileName = (batch: RedeemBatch) => `redeem-codes-${batch.name.replace(/[^\p{L}\p{N}_-]+/gu, '-')}`;

const saveCodes = (batch: RedeemBatch, csv: string) =>
  saveFile(fileName(batch), 'csv', new Blob([csv], { type: 'text/csv;charset=utf-8' }));

/**
 * A new batch: its name, note, how many codes and what each gives. The codes' CSV is saved the
 * moment the server answers, and can be saved again only while this dialog stays open: the server
 * keeps the codes hashed and never gives them again.
 */
export function CreateBatchModal(props: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const { t } = useTranslation(['redeem', 'common']);
  const [form] = Form.useForm<Fields>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [created, setCreated] = useState<{ batch: RedeemBatch; csv: string } | null>(null);
  const kind = Form.useWatch('kind', form);

  const submit = async (fields: Fields) => {
    setSaving(true);
    setFailure(null);
    try {
      const reply = await createBatch(bodyOf(fields));
      setCreated(reply);
      saveCodes(reply.batch, reply.csv);
      props.onCreated();
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  const close = () => {
    setCreated(null);
    setFailure(null);
    form.resetFields();
    props.onClose();
  };

  return (
    <Modal
      open={props.open}
      title={t('newBatch')}
      onCancel={close}
      maskClosable={false}
      forceRender
      footer={
        created
          ? [
              <Button key="close" type="primary" onClick={close}>
                {t('close')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('common:cancel')}
              </Button>,
              <Button key="create" type="primary" loading={saving} onClick={() => form.submit()}>
                {t('generate')}
              </Button>,
            ]
      }
    >
      {created ? (
        <Result
          status="success"
          title={t('generated', { count: created.batch.count })}
          subTitle={t('generatedHint')}
          extra={
            <Button icon={<DownloadOutlined />} onClick={() => saveCodes(created.batch, created.csv)}>
              {t('downloadAgain')}
            </Button>
          }
        />
      ) : (
        <Form<Fields>
          form={form}
          layout="vertical"
          initialValues={{ kind: 'plan', period: 'month', connections: 1, days: 30, count: 100 }}
          onFinish={(fields) => void submit(fields)}
        >
          <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true, max: 80 }]}>
            <Input />
          </Form.Item>
          <Form.Item name="note" label={t('note')} rules={[{ max: 500 }]}>
            <Input.TextArea rows={2} />
          </Form.Item>
          <Form.Item
            name="count"
            label={t('count')}
            extra={t('countHint', { max: REDEEM_BATCH_MAX })}
            rules={[{ required: true }]}
          >
            <InputNumber min={1} max={REDEEM_BATCH_MAX} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="kind" label={t('grant')}>
            <Radio.Group
              options={[
                { value: 'plan', label: t('grantKindPlan') },
                { value: 'days', label: t('grantKindDays') },
              ]}
            />
          </Form.Item>
          {kind === 'days' ? (
            <Form.Item name="days" label={t('days')} rules={[{ required: true }]}>
              <InputNumber min={1} max={REDEEM_DAYS_MAX} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          ) : (
            <>
              <Form.Item name="period" label={t('common:period')}>
                <Select
                  options={PERIOD_NAMES.map((period) => ({
                    value: period,
                    label: t(`common:period_${period}`),
                  }))}
                />
              </Form.Item>
              <Form.Item name="connections" label={t('connections')} rules={[{ required: true }]}>
                <InputNumber min={1} max={1000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </>
          )}
          {failure && <Alert type="error" title={failure} />}
        </Form>
      )}
    </Modal>
  );
}
