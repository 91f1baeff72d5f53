package deadline

import "time"

// codulMuncii is where Romania's public holidays are listed.
const codulMuncii = "art. 139 alin. (1) Codul muncii (Legea nr. 53/2003)"

// feastsRO are Romania's public holidays ("zile de sărbătoare legală în care nu se
// lucrează", art. 139 alin. (1) Codul muncii), each from the year the law that added
// it first applies; Easter and Pentecost are the Orthodox ones (art. 139 alin. (2^1)
// lets Christians of other churches take their own, which does not move court terms).
var feastsRO = []feast{
	fixed(time.January, 1, "Anul Nou (New Year's Day)", codulMuncii, 0),
	fixed(time.January, 2, "A doua zi de Anul Nou (second day of the New Year)", codulMuncii, 0),
	fixed(time.January, 6, "Boboteaza (Epiphany)", codulMuncii+", added by Legea nr. 52/2023", 2024),
	fixed(time.January, 7, "Sfântul Ioan Botezătorul (Synaxis of St John the Baptist)", codulMuncii+", added by Legea nr. 52/2023", 2024),
	fixed(time.January, 24, "Ziua Unirii Principatelor Române (Union Day)", codulMuncii+", added by Legea nr. 171/2016", 2017),
	movable(-2, "Vinerea Mare (Orthodox Good Friday)", codulMuncii+", added by Legea nr. 64/2018", 2018),
	movable(0, "Paștele (Orthodox Easter Sunday)", codulMuncii, 0),
	movable(1, "A doua zi de Paște (Orthodox Easter Monday)", codulMuncii, 0),
	fixed(time.May, 1, "Ziua Muncii (Labour Day)", codulMuncii, 0),
	fixed(time.June, 1, "Ziua Copilului (Children's Day)", codulMuncii+", added by Legea nr. 220/2016", 2017),
	movable(49, "Rusaliile (Orthodox Pentecost)", codulMuncii, 0),
	movable(50, "A doua zi de Rusalii (Orthodox Whit Monday)", codulMuncii, 0),
	fixed(time.August, 15, "Adormirea Maicii Domnului (Dormition of the Mother of God)", codulMuncii, 0),
	fixed(time.November, 30, "Sfântul Andrei (St Andrew's Day)", codulMuncii+", added by Legea nr. 147/2012", 2012),
	fixed(time.December, 1, "Ziua Națională a României (National Day)", codulMuncii, 0),
	fixed(time.December, 25, "Crăciunul (Christmas Day)", codulMuncii, 0),
	fixed(time.December, 26, "A doua zi de Crăciun (second day of Christmas)", codulMuncii, 0),
}

// HolidaysRO is Romania's public holidays in year y, sorted by day.
func HolidaysRO(y int) []Holiday {
	return sorted(holidaysOf(feastsRO, y, orthodoxEaster(y)))
}
