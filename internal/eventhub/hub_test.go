package eventhub

import "testing"

func TestNotifyWakesTheCasesSubscribersOnce(t *testing.T) {
	h := New()
	a, b, other := h.Subscribe("c1"), h.Subscribe("c1"), h.Subscribe("c2")
	h.Notify("c1")
	h.Notify("c1")
	for name, s := range map[string]*Sub{"a": a, "b": b} {
		select {
		case <-s.C:
		default:
			t.Errorf("subscriber %s was not woken", name)
		}
		select {
		case <-s.C:
			t.Errorf("subscriber %s was woken twice for appends it had not read yet", name)
		default:
		}
	}
	select {
	case <-other.C:
		t.Error("another case's subscriber was woken")
	default:
	}
	a.Close()
	b.Close()
	other.Close()
	if len(h.subs) != 0 {
		t.Errorf("closed subscriptions remain: %v", h.subs)
	}
	var none *Hub
	none.Notify("c1")
	none.Subscribe("c1").Close()
}
