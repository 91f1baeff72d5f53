package schemas

import (
	"reflect"
	"testing"
	"time"
)

// TestCaseStatusSameSeesEveryField: a change to any field of a CaseStatus but its Seq
// and UpdatedAt makes it another view, so that a field added later cannot be left out
// of Same (and so never reach the store).
func TestCaseStatusSameSeesEveryField(t *testing.T) {
	base := CaseStatus{Phase: PhaseActive, Status: StatusOpen, Tickets: []string{"t1"}, Payment: &PaymentConfirmed{ID: "evt_1"}}
	if !base.Same(base) {
		t.Fatal("a status differs from itself")
	}
	other := base
	other.Seq, other.UpdatedAt = 9, time.Now()
	if !base.Same(other) {
		t.Error("Seq and UpdatedAt made another view")
	}
	typ := reflect.TypeFor[CaseStatus]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Name == "Seq" || f.Name == "UpdatedAt" {
			continue
		}
		changed := base
		v := reflect.ValueOf(&changed).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Slice:
			v.Set(reflect.Append(v, reflect.ValueOf("t2")))
		case reflect.Pointer:
			p := reflect.New(f.Type.Elem()) // a zero value where base has none or another
			v.Set(p)
		case reflect.Struct: // time.Time
			v.Set(reflect.ValueOf(time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)))
		default:
			t.Fatalf("field %s of kind %s: teach this test to change it", f.Name, v.Kind())
		}
		if base.Same(changed) {
			t.Errorf("a change to %s leaves the view the same", f.Name)
		}
	}
}
