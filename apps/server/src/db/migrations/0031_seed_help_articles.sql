-- The help center's first articles (PRODUCT.md section 10): a start, a tutorial per common app,
-- payments and troubleshooting, in en, zh and tw. Staff edit them in the back office like any other.
INSERT INTO "help_articles" ("slug", "category", "position", "published", "title", "body") VALUES
('getting-started', 'getting_started', 0, true,
 jsonb_build_object('en', $md$Getting started$md$, 'zh', $md$快速上手$md$, 'tw', $md$快速上手$md$),
 jsonb_build_object('en', $md$Welcome to {{site_name}}. Three steps take you from an account to a working connection.

1. **Get access.** Claim the free trial or buy a plan on the [Buy](/buy) page.
2. **Install an app** for your device from the [download page](/download).
3. **Import your device's link** into the app: each device has its own link under [My devices](/devices).

:::no-access
You have no access at the moment: [buy a plan](/buy) or claim the free trial, then come back to this page.
:::

:::access
Your access is running. Pick one of your devices below, then tap the import button of your app or scan the QR code with it:

{{device_link}}
:::

Each link works on one device at a time. Give every phone or computer its own device and link.

Step-by-step tutorials for each app are in the **Clients** section of the help center.$md$, 'zh', $md$欢迎使用 {{site_name}}。三步即可从注册账户到成功连接。

1. **开通服务**：在[购买](/buy)页面领取免费试用或购买套餐。
2. **安装客户端**：在[下载页面](/download)下载适合您设备的应用。
3. **导入设备的订阅链接**：每台设备在[我的设备](/devices)中都有自己的链接。

:::no-access
您目前没有可用的服务：请先[购买套餐](/buy)或领取免费试用，再回到本页。
:::

:::access
您的服务正在生效。请在下方选择一台设备，然后点击对应客户端的导入按钮，或用客户端扫描二维码：

{{device_link}}
:::

每个链接同一时间只能在一台设备上连接。请为每部手机或电脑分别使用一个设备和链接。

各客户端的详细教程见帮助中心的**客户端**分类。$md$, 'tw', $md$歡迎使用 {{site_name}}。三步即可從註冊帳戶到成功連線。

1. **開通服務**：在[購買](/buy)頁面領取免費試用或購買方案。
2. **安裝用戶端**：在[下載頁面](/download)下載適合您裝置的應用程式。
3. **匯入裝置的訂閱連結**：每台裝置在[我的裝置](/devices)中都有自己的連結。

:::no-access
您目前沒有可用的服務：請先[購買方案](/buy)或領取免費試用，再回到本頁。
:::

:::access
您的服務正在生效。請在下方選擇一台裝置，然後點擊對應用戶端的匯入按鈕，或用用戶端掃描 QR 碼：

{{device_link}}
:::

每個連結同一時間只能在一台裝置上連線。請為每支手機或電腦分別使用一個裝置和連結。

各用戶端的詳細教學見說明中心的**用戶端**分類。$md$)),
('clash-verge-rev', 'clients', 0, true,
 jsonb_build_object('en', $md$Clash Verge Rev tutorial$md$, 'zh', $md$Clash Verge Rev 使用教程$md$, 'tw', $md$Clash Verge Rev 使用教學$md$),
 jsonb_build_object('en', $md$**Clash Verge Rev** runs on Windows, macOS and Linux. It imports your link as a Clash Meta (mihomo) profile, through the `clash://install-config` button.

## Import your link

{{device_link}}

1. Install Clash Verge Rev from the [download page](/download) and open it once.
2. Tap **Clash Verge / FlClash / mihomo** above: the browser asks to open Clash Verge Rev; allow it.
3. Without the button: copy the link, open **Profiles**, paste it into the box at the top and tap **Import**.
4. Select the new profile, open **Proxies** and choose a node; turn on **System Proxy** in **Settings** (or **TUN mode** for every app).

## If it does not connect

- Update the subscription in the app: your link's servers change when nodes are added.
- Check the [node status](/nodes) page, then read [Cannot connect](/help/cannot-connect).
$md$, 'zh', $md$**Clash Verge Rev** 支持 Windows、macOS 和 Linux。通过 `clash://install-config` 导入按钮，以 Clash Meta（mihomo）配置导入您的链接。

## 导入您的链接

{{device_link}}

1. 在[下载页面](/download)安装 Clash Verge Rev，并先打开一次。
2. 点击上方的 **Clash Verge / FlClash / mihomo** 按钮：浏览器会询问是否打开 Clash Verge Rev，选择允许。
3. 无法使用按钮时：复制链接，打开**订阅**页面，粘贴到顶部输入框并点击**导入**。
4. 选中新订阅，在**代理**页面选择节点；在**设置**中打开**系统代理**（或打开 **TUN 模式**让所有应用连接）。

## 无法连接时

- 在客户端中更新订阅：节点增加时，链接中的服务器会随之变化。
- 查看[节点状态](/nodes)页面，再阅读[无法连接](/help/cannot-connect)。
$md$, 'tw', $md$**Clash Verge Rev** 支援 Windows、macOS 和 Linux。透過 `clash://install-config` 匯入按鈕，以 Clash Meta（mihomo）設定匯入您的連結。

## 匯入您的連結

{{device_link}}

1. 在[下載頁面](/download)安裝 Clash Verge Rev，並先開啟一次。
2. 點擊上方的 **Clash Verge / FlClash / mihomo** 按鈕：瀏覽器會詢問是否開啟 Clash Verge Rev，選擇允許。
3. 無法使用按鈕時：複製連結，開啟**訂閱**頁面，貼到頂部輸入框並點擊**匯入**。
4. 選取新訂閱，在**代理**頁面選擇節點；在**設定**中開啟**系統代理**（或開啟 **TUN 模式**讓所有應用程式連線）。

## 無法連線時

- 在用戶端中更新訂閱：節點增加時，連結中的伺服器會隨之變化。
- 查看[節點狀態](/nodes)頁面，再閱讀[無法連線](/help/cannot-connect)。
$md$)),
('flclash', 'clients', 1, true,
 jsonb_build_object('en', $md$FlClash tutorial$md$, 'zh', $md$FlClash 使用教程$md$, 'tw', $md$FlClash 使用教學$md$),
 jsonb_build_object('en', $md$**FlClash** runs on Android, Windows, macOS and Linux. It imports your link as a Clash Meta (mihomo) profile, through the `clash://install-config` button.

## Import your link

{{device_link}}

1. Install FlClash from the [download page](/download).
2. Tap **Clash Verge / FlClash / mihomo** above and choose FlClash when asked.
3. Without the button: copy the link, open **Profiles**, tap **+**, choose **URL**, paste the link and tap **Submit**.
4. Go back to **Dashboard** and tap the start button; on Android allow the VPN request.

## If it does not connect

- Update the subscription in the app: your link's servers change when nodes are added.
- Check the [node status](/nodes) page, then read [Cannot connect](/help/cannot-connect).
$md$, 'zh', $md$**FlClash** 支持 Android、Windows、macOS 和 Linux。通过 `clash://install-config` 导入按钮，以 Clash Meta（mihomo）配置导入您的链接。

## 导入您的链接

{{device_link}}

1. 在[下载页面](/download)安装 FlClash。
2. 点击上方的 **Clash Verge / FlClash / mihomo** 按钮，按提示选择 FlClash 打开。
3. 无法使用按钮时：复制链接，打开**配置**页面，点击 **+**，选择 **URL**，粘贴链接后点击**提交**。
4. 回到**仪表盘**点击启动按钮；Android 上请允许 VPN 连接请求。

## 无法连接时

- 在客户端中更新订阅：节点增加时，链接中的服务器会随之变化。
- 查看[节点状态](/nodes)页面，再阅读[无法连接](/help/cannot-connect)。
$md$, 'tw', $md$**FlClash** 支援 Android、Windows、macOS 和 Linux。透過 `clash://install-config` 匯入按鈕，以 Clash Meta（mihomo）設定匯入您的連結。

## 匯入您的連結

{{device_link}}

1. 在[下載頁面](/download)安裝 FlClash。
2. 點擊上方的 **Clash Verge / FlClash / mihomo** 按鈕，依提示選擇 FlClash 開啟。
3. 無法使用按鈕時：複製連結，開啟**設定檔**頁面，點擊 **+**，選擇 **URL**，貼上連結後點擊**提交**。
4. 回到**儀表板**點擊啟動按鈕；Android 上請允許 VPN 連線請求。

## 無法連線時

- 在用戶端中更新訂閱：節點增加時，連結中的伺服器會隨之變化。
- 查看[節點狀態](/nodes)頁面，再閱讀[無法連線](/help/cannot-connect)。
$md$)),
('v2rayn', 'clients', 2, true,
 jsonb_build_object('en', $md$v2rayN tutorial$md$, 'zh', $md$v2rayN 使用教程$md$, 'tw', $md$v2rayN 使用教學$md$),
 jsonb_build_object('en', $md$**v2rayN** runs on Windows (and Linux, macOS). It imports your link as a subscription of share links (it has no import button: paste the link).

## Import your link

{{device_link}}

1. Install v2rayN from the [download page](/download) and start it.
2. Copy your link above.
3. Open **Subscription group → Subscription group setting**, tap **Add**, paste the link into **URL**, give it a remark and tap **OK**.
4. Open **Subscription group → Update subscription without proxy**, choose a server in the list and press **Enter**.
5. At the bottom of the window set **System proxy** to **Set system proxy**.

## If it does not connect

- Update the subscription in the app: your link's servers change when nodes are added.
- Check the [node status](/nodes) page, then read [Cannot connect](/help/cannot-connect).
$md$, 'zh', $md$**v2rayN** 支持 Windows（以及 Linux、macOS）。v2rayN 没有一键导入按钮：请粘贴订阅链接，它会读取其中的分享链接。

## 导入您的链接

{{device_link}}

1. 在[下载页面](/download)安装并启动 v2rayN。
2. 复制上方的链接。
3. 打开**订阅分组 → 订阅分组设置**，点击**添加**，把链接粘贴到**可选地址 (url)**，填写别名后点击**确定**。
4. 打开**订阅分组 → 更新全部订阅（不通过代理）**，在列表中选中一个服务器并按**回车**设为活动服务器。
5. 在窗口底部把**系统代理**设为**自动配置系统代理**。

## 无法连接时

- 在客户端中更新订阅：节点增加时，链接中的服务器会随之变化。
- 查看[节点状态](/nodes)页面，再阅读[无法连接](/help/cannot-connect)。
$md$, 'tw', $md$**v2rayN** 支援 Windows（以及 Linux、macOS）。v2rayN 沒有一鍵匯入按鈕：請貼上訂閱連結，它會讀取其中的分享連結。

## 匯入您的連結

{{device_link}}

1. 在[下載頁面](/download)安裝並啟動 v2rayN。
2. 複製上方的連結。
3. 開啟**訂閱分組 → 訂閱分組設定**，點擊**新增**，把連結貼到**可選位址 (url)**，填寫別名後點擊**確定**。
4. 開啟**訂閱分組 → 更新全部訂閱（不透過代理）**，在列表中選取一個伺服器並按 **Enter** 設為使用中伺服器。
5. 在視窗底部把**系統代理**設為**自動設定系統代理**。

## 無法連線時

- 在用戶端中更新訂閱：節點增加時，連結中的伺服器會隨之變化。
- 查看[節點狀態](/nodes)頁面，再閱讀[無法連線](/help/cannot-connect)。
$md$)),
('shadowrocket', 'clients', 3, true,
 jsonb_build_object('en', $md$Shadowrocket tutorial$md$, 'zh', $md$Shadowrocket 使用教程$md$, 'tw', $md$Shadowrocket 使用教學$md$),
 jsonb_build_object('en', $md$**Shadowrocket** runs on iPhone, iPad and Apple-silicon Macs. It imports your link through its `sub://` button.

## Import your link

{{device_link}}

1. Install Shadowrocket from the App Store (it needs an Apple ID of a region where it is sold).
2. On the iPhone, open this page and tap **Shadowrocket** above; Shadowrocket opens and adds the subscription.
3. Without the button: copy the link, open Shadowrocket, tap **+** at the top right, set **Type** to **Subscribe**, paste the link into **URL** and tap **Done**. Or tap the scan icon at the top left and scan the QR code shown on a computer.
4. Choose a node in the list and turn on the switch at the top; allow adding the VPN configuration.

## If it does not connect

- Update the subscription in the app: your link's servers change when nodes are added.
- Check the [node status](/nodes) page, then read [Cannot connect](/help/cannot-connect).
$md$, 'zh', $md$**Shadowrocket** 支持 iPhone、iPad 和 Apple 芯片的 Mac。通过 `sub://` 导入按钮导入您的链接。

## 导入您的链接

{{device_link}}

1. 在 App Store 安装 Shadowrocket（需要使用已上架该应用地区的 Apple ID）。
2. 在 iPhone 上打开本页，点击上方的 **Shadowrocket** 按钮，Shadowrocket 会打开并添加订阅。
3. 无法使用按钮时：复制链接，打开 Shadowrocket，点击右上角 **+**，**类型**选择 **Subscribe**，把链接粘贴到 **URL** 并点击**完成**；或点击左上角扫描图标，扫描电脑上显示的二维码。
4. 在列表中选择节点，打开顶部的开关，并允许添加 VPN 配置。

## 无法连接时

- 在客户端中更新订阅：节点增加时，链接中的服务器会随之变化。
- 查看[节点状态](/nodes)页面，再阅读[无法连接](/help/cannot-connect)。
$md$, 'tw', $md$**Shadowrocket** 支援 iPhone、iPad 和 Apple 晶片的 Mac。透過 `sub://` 匯入按鈕匯入您的連結。

## 匯入您的連結

{{device_link}}

1. 在 App Store 安裝 Shadowrocket（需要使用已上架該應用程式地區的 Apple ID）。
2. 在 iPhone 上開啟本頁，點擊上方的 **Shadowrocket** 按鈕，Shadowrocket 會開啟並新增訂閱。
3. 無法使用按鈕時：複製連結，開啟 Shadowrocket，點擊右上角 **+**，**類型**選擇 **Subscribe**，把連結貼到 **URL** 並點擊**完成**；或點擊左上角掃描圖示，掃描電腦上顯示的 QR 碼。
4. 在列表中選擇節點，開啟頂部的開關，並允許新增 VPN 設定。

## 無法連線時

- 在用戶端中更新訂閱：節點增加時，連結中的伺服器會隨之變化。
- 查看[節點狀態](/nodes)頁面，再閱讀[無法連線](/help/cannot-connect)。
$md$)),
('sing-box', 'clients', 4, true,
 jsonb_build_object('en', $md$sing-box tutorial$md$, 'zh', $md$sing-box 使用教程$md$, 'tw', $md$sing-box 使用教學$md$),
 jsonb_build_object('en', $md$**sing-box** runs on iOS, Android, Windows, macOS and Linux. It imports your link as a sing-box remote profile, through the `sing-box://import-remote-profile` button.

## Import your link

{{device_link}}

1. Install sing-box (SFI on iOS, SFA on Android, SFM on macOS) from the [download page](/download).
2. Tap **sing-box / Hiddify** above: sing-box opens with a new remote profile; tap **Create** (or **Import**).
3. Without the button: copy the link, open **Profiles → New Profile**, set **Type** to **Remote**, paste the link into **URL** and tap **Create**.
4. Open **Dashboard**, choose the profile and tap **Enable**; allow the VPN request.

## If it does not connect

- Update the subscription in the app: your link's servers change when nodes are added.
- Check the [node status](/nodes) page, then read [Cannot connect](/help/cannot-connect).
$md$, 'zh', $md$**sing-box** 支持 iOS、Android、Windows、macOS 和 Linux。通过 `sing-box://import-remote-profile` 导入按钮，以 sing-box 远程配置导入您的链接。

## 导入您的链接

{{device_link}}

1. 在[下载页面](/download)安装 sing-box（iOS 为 SFI，Android 为 SFA，macOS 为 SFM）。
2. 点击上方的 **sing-box / Hiddify** 按钮：sing-box 会打开并带入新的远程配置，点击**创建**（或**导入**）。
3. 无法使用按钮时：复制链接，打开**配置 → 新建配置**，**类型**选择**远程**，把链接粘贴到 **URL** 并点击**创建**。
4. 打开**仪表盘**，选择该配置并点击**启用**，允许 VPN 请求。

## 无法连接时

- 在客户端中更新订阅：节点增加时，链接中的服务器会随之变化。
- 查看[节点状态](/nodes)页面，再阅读[无法连接](/help/cannot-connect)。
$md$, 'tw', $md$**sing-box** 支援 iOS、Android、Windows、macOS 和 Linux。透過 `sing-box://import-remote-profile` 匯入按鈕，以 sing-box 遠端設定匯入您的連結。

## 匯入您的連結

{{device_link}}

1. 在[下載頁面](/download)安裝 sing-box（iOS 為 SFI，Android 為 SFA，macOS 為 SFM）。
2. 點擊上方的 **sing-box / Hiddify** 按鈕：sing-box 會開啟並帶入新的遠端設定，點擊**建立**（或**匯入**）。
3. 無法使用按鈕時：複製連結，開啟**設定檔 → 新增設定檔**，**類型**選擇**遠端**，把連結貼到 **URL** 並點擊**建立**。
4. 開啟**儀表板**，選擇該設定檔並點擊**啟用**，允許 VPN 請求。

## 無法連線時

- 在用戶端中更新訂閱：節點增加時，連結中的伺服器會隨之變化。
- 查看[節點狀態](/nodes)頁面，再閱讀[無法連線](/help/cannot-connect)。
$md$)),
('hiddify', 'clients', 5, true,
 jsonb_build_object('en', $md$Hiddify tutorial$md$, 'zh', $md$Hiddify 使用教程$md$, 'tw', $md$Hiddify 使用教學$md$),
 jsonb_build_object('en', $md$**Hiddify** runs on iOS, Android, Windows, macOS and Linux. It imports your link through the `sing-box://import-remote-profile` button, or from the clipboard.

## Import your link

{{device_link}}

1. Install Hiddify from the [download page](/download) and open it once.
2. Tap **sing-box / Hiddify** above and choose Hiddify when asked.
3. Without the button: copy the link, open Hiddify, tap **New profile** (**+**) and choose **Add from clipboard**. Or choose **Scan QR code** and scan the code shown on a computer.
4. Tap the large connect button in the middle; allow the VPN request.

## If it does not connect

- Update the subscription in the app: your link's servers change when nodes are added.
- Check the [node status](/nodes) page, then read [Cannot connect](/help/cannot-connect).
$md$, 'zh', $md$**Hiddify** 支持 iOS、Android、Windows、macOS 和 Linux。可通过 `sing-box://import-remote-profile` 导入按钮或从剪贴板导入您的链接。

## 导入您的链接

{{device_link}}

1. 在[下载页面](/download)安装 Hiddify，并先打开一次。
2. 点击上方的 **sing-box / Hiddify** 按钮，按提示选择 Hiddify 打开。
3. 无法使用按钮时：复制链接，打开 Hiddify，点击**新的配置**（**+**），选择**从剪贴板添加**；或选择**扫描二维码**，扫描电脑上显示的二维码。
4. 点击中间的大连接按钮，允许 VPN 请求。

## 无法连接时

- 在客户端中更新订阅：节点增加时，链接中的服务器会随之变化。
- 查看[节点状态](/nodes)页面，再阅读[无法连接](/help/cannot-connect)。
$md$, 'tw', $md$**Hiddify** 支援 iOS、Android、Windows、macOS 和 Linux。可透過 `sing-box://import-remote-profile` 匯入按鈕或從剪貼簿匯入您的連結。

## 匯入您的連結

{{device_link}}

1. 在[下載頁面](/download)安裝 Hiddify，並先開啟一次。
2. 點擊上方的 **sing-box / Hiddify** 按鈕，依提示選擇 Hiddify 開啟。
3. 無法使用按鈕時：複製連結，開啟 Hiddify，點擊**新的設定檔**（**+**），選擇**從剪貼簿新增**；或選擇**掃描 QR 碼**，掃描電腦上顯示的 QR 碼。
4. 點擊中間的大連線按鈕，允許 VPN 請求。

## 無法連線時

- 在用戶端中更新訂閱：節點增加時，連結中的伺服器會隨之變化。
- 查看[節點狀態](/nodes)頁面，再閱讀[無法連線](/help/cannot-connect)。
$md$)),
('payments', 'payments', 0, true,
 jsonb_build_object('en', $md$Paying and renewing$md$, 'zh', $md$付款与续费$md$, 'tw', $md$付款與續費$md$),
 jsonb_build_object('en', $md$Plans are bought on the [Buy](/buy) page: choose a period and how many devices may connect at once, then pay.

- Time you buy is added to the end of your current access.
- More devices while your access runs: the remaining time is converted to the new size at once.
- An order waits 30 minutes for its payment; an unpaid order can be cancelled under [Orders](/order).
- A payment that arrives late is still credited: money taken is never lost.

If a payment went through but your access did not change after a few minutes, open [Orders](/order), then contact support with the order number.$md$, 'zh', $md$在[购买](/buy)页面选择时长和可同时连接的设备数量后付款。

- 购买的时长会加在当前服务到期时间之后。
- 服务期间增加设备数量：剩余时间会立即按新的数量折算。
- 订单会保留 30 分钟等待付款；未付款的订单可在[订单](/order)中取消。
- 付款晚到也会照常入账，已付的款项不会丢失。

如果付款成功几分钟后服务仍未变化，请打开[订单](/order)，并带上订单号联系客服。$md$, 'tw', $md$在[購買](/buy)頁面選擇時長和可同時連線的裝置數量後付款。

- 購買的時長會加在目前服務到期時間之後。
- 服務期間增加裝置數量：剩餘時間會立即按新的數量折算。
- 訂單會保留 30 分鐘等待付款；未付款的訂單可在[訂單](/order)中取消。
- 付款晚到也會照常入帳，已付的款項不會遺失。

如果付款成功幾分鐘後服務仍未變化，請開啟[訂單](/order)，並帶上訂單號碼聯絡客服。$md$)),
('cannot-connect', 'troubleshooting', 0, true,
 jsonb_build_object('en', $md$Cannot connect$md$, 'zh', $md$无法连接怎么办$md$, 'tw', $md$無法連線怎麼辦$md$),
 jsonb_build_object('en', $md$Work through these checks in order.

1. **Is your access running?** The console shows when it ends; [renew](/buy) if it has ended.
2. **Are the nodes up?** The [node status](/nodes) page shows each node your plan may use, online or not, and its load. Pick another node in your app if yours is down or busy.
3. **Update the subscription** in your app, so it has the current servers.
4. **One device per link.** When a second device uses the same link, it is turned away: [My devices](/devices) shows it. Give each device its own link, or reset the link.
5. **Check the time** on your device: a clock minutes off breaks the connection.
6. Switch between Wi-Fi and mobile data to rule out your network.

Still stuck? Contact support with your app's name, its version and the time you tried.$md$, 'zh', $md$请按顺序逐项检查。

1. **服务是否在有效期内？** 控制台会显示到期时间；如已到期请[续费](/buy)。
2. **节点是否在线？** [节点状态](/nodes)页面列出您的套餐可用的每个节点、是否在线及负载。如果当前节点离线或繁忙，请在客户端中换一个节点。
3. 在客户端中**更新订阅**，获取最新的服务器列表。
4. **一个链接只能用于一台设备。** 第二台设备使用同一链接连接时会被拒绝，[我的设备](/devices)会显示此情况。请为每台设备使用各自的链接，或重置链接。
5. **检查设备时间**：时钟偏差几分钟就会导致无法连接。
6. 在 Wi-Fi 和移动数据之间切换，排除网络本身的问题。

仍无法连接？请联系客服，并提供客户端名称、版本和尝试连接的时间。$md$, 'tw', $md$請依序逐項檢查。

1. **服務是否在有效期內？** 主控台會顯示到期時間；如已到期請[續費](/buy)。
2. **節點是否在線？** [節點狀態](/nodes)頁面列出您的方案可用的每個節點、是否在線及負載。如果目前節點離線或繁忙，請在用戶端中換一個節點。
3. 在用戶端中**更新訂閱**，取得最新的伺服器列表。
4. **一個連結只能用於一台裝置。** 第二台裝置使用同一連結連線時會被拒絕，[我的裝置](/devices)會顯示此情況。請為每台裝置使用各自的連結，或重設連結。
5. **檢查裝置時間**：時鐘偏差幾分鐘就會導致無法連線。
6. 在 Wi-Fi 和行動數據之間切換，排除網路本身的問題。

仍無法連線？請聯絡客服，並提供用戶端名稱、版本和嘗試連線的時間。$md$))
ON CONFLICT ("slug") DO NOTHING;
