import type { Reason } from '@skyway/shared/envelope';
import type { Language } from '@skyway/shared/languages';

/** Every `msg` the server can send, keyed by reason or by success message. */
export type MessageKey = Reason | 'ok';

type Catalogue = Record<MessageKey, string>;

const en: Catalogue = {
  ok: 'Success',
  field_required: 'Please enter {field}',
  field_invalid: '{field} is not valid',
  files_not_accepted: 'File uploads are not accepted',
  body_invalid: 'The request could not be read',
  payload_too_large: 'The request is too large',
  unsupported_media_type: 'This request format is not supported',
  signature_missing: 'The request is not signed',
  signature_invalid: 'The request signature is not valid',
  signature_stale: 'The request has expired; check your device clock and try again',
  not_signed_in: 'Please sign in',
  account_revoked: 'This account has been closed; contact support to restore it',
  not_found: 'Not found',
  too_many_requests: 'Too many requests; please try again in {retry_after} seconds',
  internal_error: 'Something went wrong on our side; please try again later',
};

const zh: Catalogue = {
  ok: '操作成功',
  field_required: '请输入{field}',
  field_invalid: '{field}格式不正确',
  files_not_accepted: '不接受上传文件',
  body_invalid: '无法读取请求内容',
  payload_too_large: '请求内容过大',
  unsupported_media_type: '不支持此请求格式',
  signature_missing: '请求缺少签名',
  signature_invalid: '请求签名无效',
  signature_stale: '请求已过期，请检查设备时间后重试',
  not_signed_in: '请先登录',
  account_revoked: '该账号已被注销，如需恢复请联系客服',
  not_found: '未找到',
  too_many_requests: '请求过于频繁，请在{retry_after}秒后重试',
  internal_error: '服务器出了点问题，请稍后重试',
};

const tw: Catalogue = {
  ok: '操作成功',
  field_required: '請輸入{field}',
  field_invalid: '{field}格式不正確',
  files_not_accepted: '不接受上傳檔案',
  body_invalid: '無法讀取請求內容',
  payload_too_large: '請求內容過大',
  unsupported_media_type: '不支援此請求格式',
  signature_missing: '請求缺少簽章',
  signature_invalid: '請求簽章無效',
  signature_stale: '請求已過期，請檢查裝置時間後重試',
  not_signed_in: '請先登入',
  account_revoked: '此帳號已被註銷，如需恢復請聯絡客服',
  not_found: '找不到',
  too_many_requests: '請求過於頻繁，請在{retry_after}秒後重試',
  internal_error: '伺服器出了點問題，請稍後重試',
};

export const MESSAGES: Record<Language, Catalogue> = { en, zh, tw };

/** Names of request fields as `msg` shows them; a field missing here is shown by its own name. */
export const FIELD_LABELS: Record<Language, Record<string, string>> = {
  en: {
    email: 'e-mail',
    password: 'password',
    email_code: 'verification code',
    invite_code: 'invite code',
    old_pwd: 'old password',
    new_pwd: 'new password',
    scene: 'scene',
    page: 'page',
    size: 'page size',
  },
  zh: {
    email: '邮箱',
    password: '密码',
    email_code: '验证码',
    invite_code: '邀请码',
    old_pwd: '旧密码',
    new_pwd: '新密码',
    scene: '场景',
    page: '页码',
    size: '每页条数',
  },
  tw: {
    email: '電子郵件',
    password: '密碼',
    email_code: '驗證碼',
    invite_code: '邀請碼',
    old_pwd: '舊密碼',
    new_pwd: '新密碼',
    scene: '場景',
    page: '頁碼',
    size: '每頁筆數',
  },
};

export type MessageParams = Record<string, string | number>;

export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  const labelled = { ...params };
  if (typeof labelled.field === 'string') {
    labelled.field = FIELD_LABELS[language][labelled.field] ?? labelled.field;
  }
  return MESSAGES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in labelled ? String(labelled[name]) : whole,
  );
}
