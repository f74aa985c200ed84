import { Form, type FormInstance, Modal } from 'antd';
import type { ReactNode } from 'react';
import { MESSAGE_SECONDS, showSuccess } from '../lib/toast.ts';
import { DIALOG_WIDTH } from './dialog-width.ts';

interface FormDialogProps<T> {
  open: boolean;
  onClose: () => void;
  name: string;
  title: string;
  okText: string;
  form: FormInstance<T>;
  pending: boolean;
  /** Sends the checked values; resolves with the server's message, shown as success. */
  submit: (values: T) => Promise<string>;
  children: ReactNode;
}

/**
 * A 400 px account dialog around one form (spec section 2): fields are checked on blur and on
 * submit (section 5); success shows the server's message and closes; a failure keeps the dialog
 * open, the api client having shown its message already.
 */
export function FormDialog<T>({
  open,
  onClose,
  name,
  title,
  okText,
  form,
  pending,
  submit,
  children,
}: FormDialogProps<T>) {
  async function onOk() {
    const values = await form.validateFields();
    showSuccess(await submit(values), MESSAGE_SECONDS);
    onClose();
  }

  return (
    <Modal
      open={open}
      width={DIALOG_WIDTH}
      title={title}
      okText={okText}
      confirmLoading={pending}
      onOk={() => void onOk().catch(() => undefined)}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
    >
      <Form form={form} layout="vertical" requiredMark={false} validateTrigger="onBlur" name={name}>
        {children}
      </Form>
    </Modal>
  );
}
