// Our own small client of Telegram's documented Mini App web protocol
// (core.telegram.org/api/web-events and /bots/webapps): launch parameters from the URL hash,
// events out through whichever bridge the client gives (mobile: TelegramWebviewProxy,
// desktop: external.notify, web and the playground: postMessage to the parent frame), events
// in through Telegram.WebView.receiveEvent (mobile) or window messages (web). telegram.org's
// own script is not loaded: nothing waits on a third-party host before the first paint.
(function () {
  "use strict";
  const hash = new URLSearchParams(location.hash.slice(1));
  let theme = {};
  try { theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) { theme = {}; }
  const launch = {
    initData: hash.get("tgWebAppData") || "",
    version: hash.get("tgWebAppVersion") || "6.0",
    platform: hash.get("tgWebAppPlatform") || "unknown",
    startParam: hash.get("tgWebAppStartParam") || "",
    theme: theme,
  };
  const listeners = {};

  function post(eventType, eventData) {
    const data = eventData === undefined ? "" : eventData;
    if (window.TelegramWebviewProxy && window.TelegramWebviewProxy.postEvent) {
      window.TelegramWebviewProxy.postEvent(eventType, JSON.stringify(data));
    } else if (window.external && "notify" in window.external) {
      window.external.notify(JSON.stringify({ eventType: eventType, eventData: data }));
    } else if (window.parent !== window) {
      window.parent.postMessage(JSON.stringify({ eventType: eventType, eventData: data }), "*");
    }
    document.dispatchEvent(new CustomEvent("tg-out", { detail: { eventType, eventData: data } }));
  }

  function receive(eventType, eventData) {
    (listeners[eventType] || []).forEach(function (f) { f(eventData || {}); });
  }

  window.Telegram = window.Telegram || {};
  window.Telegram.WebView = window.Telegram.WebView || {};
  window.Telegram.WebView.receiveEvent = receive;
  window.addEventListener("message", function (e) {
    let m;
    try { m = typeof e.data === "string" ? JSON.parse(e.data) : e.data; } catch (err) { return; }
    if (m && typeof m.eventType === "string" && m.eventType.indexOf("web_app_") !== 0) {
      receive(m.eventType, m.eventData);
    }
  });

  const VARS = {
    bg_color: "--bg", text_color: "--text", hint_color: "--hint", link_color: "--link",
    button_color: "--button", button_text_color: "--button-text",
    secondary_bg_color: "--secondary-bg",
  };

  function dark(hex) {
    const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
    if (!m) return false;
    const [r, g, b] = m.slice(1).map(function (x) { return parseInt(x, 16); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b < 128;
  }

  function applyTheme(params) {
    const root = document.documentElement.style;
    Object.keys(VARS).forEach(function (k) { if (params[k]) root.setProperty(VARS[k], params[k]); });
    document.documentElement.dataset.theme = dark(params.bg_color) ? "dark" : "light";
    launch.theme = params;
  }

  window.tg = {
    launch: launch,
    post: post,
    on: function (type, f) { (listeners[type] = listeners[type] || []).push(f); },
    applyTheme: applyTheme,
    mainButton: function (text, visible) {
      post("web_app_setup_main_button", {
        is_visible: !!visible, is_active: !!visible, text: text || "",
        color: launch.theme.button_color || "#3390ec",
        text_color: launch.theme.button_text_color || "#ffffff",
        is_progress_visible: false,
      });
    },
    backButton: function (visible) { post("web_app_setup_back_button", { is_visible: !!visible }); },
    haptic: function (type, style) {
      const data = { type: type };
      if (type === "impact") data.impact_style = style || "light";
      if (type === "notification") data.notification_type = style || "success";
      post("web_app_trigger_haptic_feedback", data);
    },
  };
  window.tg.on("theme_changed", function (d) { applyTheme(d.theme_params || {}); });
})();
