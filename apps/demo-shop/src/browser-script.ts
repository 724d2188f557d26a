// The shop's own browser code, inlined at the end of every page's body. It is plain ES5-style
// JavaScript in a string (this package compiles for Node; the shop must not depend on a bundler
// for its pages). It owns the localStorage cart, the gallery thumbnails, the cart and checkout
// summaries, and emptying the cart on the thank-you page. Everything it writes into the page
// goes through textContent, never innerHTML.
export const SHOP_BROWSER_SCRIPT = String.raw`(function () {
  "use strict";
  var CART_KEY = "littlesprouts_cart";
  var MAX_QUANTITY = 99;

  function readCart() {
    try {
      var items = JSON.parse(window.localStorage.getItem(CART_KEY) || "[]");
      if (!Array.isArray(items)) return [];
      return items.filter(function (item) {
        return item && typeof item.handle === "string" && typeof item.quantity === "number" &&
          item.quantity >= 1 && item.quantity <= MAX_QUANTITY;
      });
    } catch (e) {
      return [];
    }
  }
  function writeCart(items) {
    try { window.localStorage.setItem(CART_KEY, JSON.stringify(items)); } catch (e) { /* private mode */ }
    updateCount();
  }
  function addToCart(handle, quantity) {
    var items = readCart();
    var found = false;
    for (var i = 0; i < items.length; i++) {
      if (items[i].handle === handle) {
        items[i].quantity = Math.min(MAX_QUANTITY, items[i].quantity + quantity);
        found = true;
      }
    }
    if (!found) items.push({ handle: handle, quantity: Math.min(MAX_QUANTITY, quantity) });
    writeCart(items);
  }
  function setQuantity(handle, quantity) {
    var q = Math.floor(Number(quantity));
    var items = readCart().filter(function (item) { return item.handle !== handle || q >= 1; });
    items.forEach(function (item) { if (item.handle === handle) item.quantity = Math.min(MAX_QUANTITY, q); });
    writeCart(items);
  }
  function clearCart() {
    try { window.localStorage.removeItem(CART_KEY); } catch (e) { /* private mode */ }
    updateCount();
  }
  function updateCount() {
    var count = 0;
    readCart().forEach(function (item) { count += item.quantity; });
    var el = document.getElementById("cart-count");
    if (el) el.textContent = String(count);
  }
  function shopData() {
    var el = document.getElementById("shop-data");
    if (!el) return null;
    try { return JSON.parse(el.textContent || "null"); } catch (e) { return null; }
  }
  function money(amount, data) { return data.symbol + amount.toFixed(2); }
  /** Cart items this shop sells (the two domains have separate storage, but be safe). */
  function cartLines(data) {
    var lines = [];
    readCart().forEach(function (item) {
      var product = data.products[item.handle];
      if (product) lines.push({ handle: item.handle, quantity: item.quantity, product: product });
    });
    return lines;
  }
  function cartTotal(lines) {
    var cents = 0;
    lines.forEach(function (line) { cents += Math.round(line.product.price * 100) * line.quantity; });
    return cents / 100;
  }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // Product page: add to cart. The queue push is a custom TRACK event the seeded goals can use.
  var addButton = document.getElementById("add-to-cart");
  if (addButton) {
    addButton.addEventListener("click", function () {
      var handle = addButton.getAttribute("data-handle");
      if (!handle) return;
      addToCart(handle, 1);
      var status = document.getElementById("cart-status");
      if (status) status.textContent = "Added to your cart.";
      window.storefitQueue = window.storefitQueue || [];
      window.storefitQueue.push(["track", "add_to_cart", {
        product_handle: handle,
        price: Number(addButton.getAttribute("data-price")),
        currency: addButton.getAttribute("data-currency")
      }]);
    });
  }

  // Product page: thumbnails switch the main gallery image.
  var mainMedia = document.getElementById("product-media-main");
  var thumbs = document.querySelectorAll(".product-thumb");
  Array.prototype.forEach.call(thumbs, function (thumb) {
    thumb.addEventListener("click", function () {
      var src = thumb.getAttribute("data-src");
      if (mainMedia && src) mainMedia.setAttribute("src", src);
      Array.prototype.forEach.call(thumbs, function (other) {
        other.setAttribute("aria-current", other === thumb ? "true" : "false");
      });
    });
  });

  // Cart page.
  var cartBody = document.getElementById("cart-items");
  function renderCart() {
    var data = shopData();
    if (!cartBody || !data) return;
    var lines = cartLines(data);
    while (cartBody.firstChild) cartBody.removeChild(cartBody.firstChild);
    lines.forEach(function (line) {
      var row = el("tr", "cart-line");
      row.setAttribute("data-handle", line.handle);
      var titleCell = el("td");
      var link = el("a", "cart-line-title", line.product.title);
      link.setAttribute("href", line.product.url);
      titleCell.appendChild(link);
      row.appendChild(titleCell);
      row.appendChild(el("td", "cart-line-price", money(line.product.price, data)));
      var qtyCell = el("td");
      var input = el("input", "cart-line-quantity");
      input.setAttribute("type", "number");
      input.setAttribute("min", "0");
      input.setAttribute("max", String(MAX_QUANTITY));
      input.setAttribute("aria-label", "Quantity of " + line.product.title);
      input.value = String(line.quantity);
      input.addEventListener("change", function () { setQuantity(line.handle, input.value); renderCart(); });
      qtyCell.appendChild(input);
      row.appendChild(qtyCell);
      row.appendChild(el("td", "cart-line-total", money(line.product.price * line.quantity, data)));
      var removeCell = el("td");
      var remove = el("button", "link-button cart-line-remove", "Remove");
      remove.setAttribute("type", "button");
      remove.addEventListener("click", function () { setQuantity(line.handle, 0); renderCart(); });
      removeCell.appendChild(remove);
      row.appendChild(removeCell);
      cartBody.appendChild(row);
    });
    var empty = lines.length === 0;
    var emptyNote = document.getElementById("cart-empty");
    if (emptyNote) emptyNote.hidden = !empty;
    var filled = document.getElementById("cart-filled");
    if (filled) filled.hidden = empty;
    var total = document.getElementById("cart-total");
    if (total) total.textContent = money(cartTotal(lines), data);
  }
  renderCart();

  // Checkout page: order summary, and the cart travels with the form as JSON.
  var checkoutForm = document.getElementById("checkout-form");
  if (checkoutForm) {
    var data = shopData();
    var lines = data ? cartLines(data) : [];
    var list = document.getElementById("checkout-lines");
    if (list && data) {
      lines.forEach(function (line) {
        var item = el("li", "order-line");
        item.appendChild(el("span", "order-line-title", line.quantity + " × " + line.product.title));
        item.appendChild(el("span", "order-line-total", money(line.product.price * line.quantity, data)));
        list.appendChild(item);
      });
    }
    var checkoutTotal = document.getElementById("checkout-total");
    if (checkoutTotal && data) checkoutTotal.textContent = money(cartTotal(lines), data);
    var cartField = document.getElementById("checkout-cart");
    if (cartField) {
      cartField.value = JSON.stringify(lines.map(function (line) {
        return { handle: line.handle, quantity: line.quantity };
      }));
    }
    if (lines.length === 0) {
      var emptyCheckout = document.getElementById("checkout-empty");
      if (emptyCheckout) emptyCheckout.hidden = false;
      var submit = document.getElementById("place-order");
      if (submit) submit.disabled = true;
    }
  }

  // Thank-you page: the order is placed, so the cart starts again.
  if (document.body && document.body.getAttribute("data-clear-cart") === "true") clearCart();

  updateCount();
  window.littleSprouts = { readCart: readCart, addToCart: addToCart, setQuantity: setQuantity, clearCart: clearCart };
})();
`;
