import { type ComponentType, useState } from 'react';
import { UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Radio, Select, Upload, type UploadFile } from 'antd';
import { ApiError } from '@skyway/shared/api-error';
import {
  TICKET_CATEGORIES,
  TICKET_IMAGE_MAX_BYTES,
  TICKET_IMAGE_TYPES,
  TICKET_IMAGES_MAX,
  TICKET_MESSAGE_MAX,
  TICKET_PRIORITIES,
  TICKET_SUBJECT_MAX,
  type TicketCategory,
  type TicketPriority,
} from '@skyway/shared/tickets';
import { useTranslation } from 'react-i18next';
import { fileToBase64, type TicketThread, useOpenTicket } from '../api/tickets.ts';

interface Values {
  subject: string;
  category: TicketCategory;
  priority: TicketPriority;
  message: string;
}

/** Picked files, checked here only to spare a wasted upload: the server checks their bytes again. */
export function useImagePicker() {
  const { t } = useTranslation('support');
  const [files, setFiles] = useState<UploadFile[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const picker = (
    <Upload
      accept={TICKET_IMAGE_TYPES.join(',')}
      multiple
      maxCount={TICKET_IMAGES_MAX}
      fileList={files}
      beforeUpload={(file) => {
        if (!(TICKET_IMAGE_TYPES as readonly string[]).includes(file.type)) setProblem(t('form.imageType'));
        else if (file.size > TICKET_IMAGE_MAX_BYTES) setProblem(t('form.imageSize'));
        else {
          setProblem(null);
          setFiles((current) =>
            [
              ...current,
              { uid: file.uid, name: file.name, status: 'done' as const, originFileObj: file },
            ].slice(0, TICKET_IMAGES_MAX),
          );
        }
        return Upload.LIST_IGNORE;
      }}
      onRemove={(file) => setFiles((current) => current.filter((each) => each.uid !== file.uid))}
    >
      {files.length < TICKET_IMAGES_MAX && (
        <Button icon={<UploadOutlined />}>{t('form.images', { count: TICKET_IMAGES_MAX })}</Button>
      )}
    </Upload>
  );
  const encoded = () =>
    Promise.all(files.flatMap((file) => (file.originFileObj ? [fileToBase64(file.originFileObj)] : [])));
  return { picker, problem, encoded, clear: () => setFiles([]) };
}

/**
 * Opens a ticket (PRODUCT.md section 10): subject, category, priority, the message and up to three
 * screenshots. The server's refusal (a limit reached, an image it will not take) shows in the form.
 */
export function TicketForm({
  onOpened,
  suggestions: Suggestions,
}: {
  onOpened: (thread: TicketThread) => void;
  /** What may already answer the subject being typed (the help center's articles, from the app). */
  suggestions?: ComponentType<{ text: string }>;
}) {
  const { t } = useTranslation('support');
  const [form] = Form.useForm<Values>();
  const subject = Form.useWatch('subject', form) ?? '';
  const [failure, setFailure] = useState<string | null>(null);
  const images = useImagePicker();
  const open = useOpenTicket();

  async function submit(values: Values) {
    setFailure(null);
    try {
      const thread = await open.mutateAsync({ ...values, images: await images.encoded() });
      form.resetFields();
      images.clear();
      onOpened(thread);
    } catch (error) {
      console.warn('Support: the ticket was refused', error);
      setFailure(error instanceof ApiError ? error.message : String(error));
    }
  }

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ category: 'connection', priority: 'medium' }}
      onFinish={(values) => void submit(values)}
    >
      <Form.Item
        name="subject"
        label={t('form.subject')}
        rules={[{ required: true, whitespace: true, message: t('form.subjectRequired') }]}
      >
        <Input maxLength={TICKET_SUBJECT_MAX} />
      </Form.Item>
      {Suggestions && <Suggestions text={subject} />}
      <Form.Item name="category" label={t('form.category')}>
        <Select options={TICKET_CATEGORIES.map((value) => ({ value, label: t(`category.${value}`) }))} />
      </Form.Item>
      <Form.Item name="priority" label={t('form.priority')}>
        <Radio.Group
          optionType="button"
          options={TICKET_PRIORITIES.map((value) => ({ value, label: t(`priority.${value}`) }))}
        />
      </Form.Item>
      <Form.Item
        name="message"
        label={t('form.message')}
        rules={[{ required: true, whitespace: true, message: t('form.messageRequired') }]}
      >
        <Input.TextArea rows={5} maxLength={TICKET_MESSAGE_MAX} showCount />
      </Form.Item>
      <Form.Item label={t('form.screenshots')}>{images.picker}</Form.Item>
      {(images.problem ?? failure) && (
        <Alert type="error" showIcon title={images.problem ?? failure} role="alert" />
      )}
      <Button type="primary" htmlType="submit" loading={open.isPending} style={{ marginTop: 16 }}>
        {t('form.submit')}
      </Button>
    </Form>
  );
}
