// The lobby reloads itself every 5 s (its lists of games), unless a field has the focus.
setTimeout(() => {
  if (!document.activeElement || document.activeElement.tagName !== 'INPUT') location.reload();
}, 5000);
