package corpus

import "strings"

// stopWords are the words of each language too common to rank by: articles,
// prepositions, pronouns, conjunctions and the forms of the auxiliary verbs, after the
// lists Snowball and Lucene ship, written folded (without diacritics) as Analyze
// compares them. Italian elided forms ("dell'", "l'") are words of their own here.
var stopWords = map[string]map[string]bool{
	"ro": wordSet(`a abia acea aceasta aceea aceeasi acei aceia acel acela acelasi acele acelea acest acesta aceste acestea
		acestei acestia acestui acestuia acolo acum adica ai aia aici al ala alaturi ale alt alta altceva alte altfel alti
		altii altul am apoi ar are as asa asadar asta astazi astea astfel asupra atare atat atata atatea atatia ati atit
		atita atitea atitia atunci au avea avem aveti avut azi ba bine ca cam cand care careia carora caruia cat catre
		ce cea ceea cei ceilalti cel cele celor ceva chiar ci cind cine cineva cit cita cite citeva citi citiva cu cui
		cum cumva da daca dar dat de deasupra deci decit deja desi despre din dintr dintre doar dupa ea ei el ele era
		eram este esti eu fara fata fel fi fie fiecare fii fim fiu fiti foarte fost frumos i ia iar ii il imi in inainte
		inapoi inca incit insa intr intre isi iti la le li lor lui m ma mai mea mei mele meu mi mie mine mult multa
		multe multi ne nea nici nimeni nimic niste noi nostri nostru noua nu numai o oare or ori orice oricine oricum
		pe pentru peste pina poate pot prea prin sa sa-mi sai sale sau se si sint sintem sinteti spre sub sunt suntem
		sunteti ta tale te ti tine toata toate tot toti totusi tu tuturor un una unde unei unele uneori unii unor unora
		unu unui unuia unul va vi voi vom vor vreo vreun`),
	"it": wordSet(`a abbia abbiamo abbiano abbiate ad agl agli ai al all alla alle allo anche avemmo avendo avesse avessero
		avessi avessimo aveste avesti avete aveva avevamo avevano avevate avevi avevo avrai avranno avrebbe avrebbero
		avrei avremmo avremo avreste avresti avrete avro avuta avute avuti avuto c che chi ci coi col come con contro
		cui d da dagl dagli dai dal dall dalla dalle dallo degl degli dei del dell della delle dello dev di dov dove
		e ebbe ebbero ebbi ed era erano eravamo eravate eri ero essendo faccia facciamo facciano facciate faccio facemmo
		facendo facesse facessero facessi facessimo faceste facesti faceva facevamo facevano facevate facevi facevo fai
		fanno farai faranno farebbe farebbero farei faremmo faremo fareste faresti farete faro fece fecero feci fosse
		fossero fossi fossimo foste fosti fu fui fummo furono gli ha hai hanno ho i il in io l la le lei li lo loro lui
		ma mi mia mie miei mio ne negl negli nei nel nell nella nelle nello noi non nostra nostre nostri nostro o per
		perche piu po quale quali qualcosa quando quanta quante quanti quanto quell quella quelle quelli quello quest
		questa queste questi questo sara saranno sarebbe sarebbero sarei saremmo saremo sareste saresti sarete saro se
		sei si sia siamo siano siate siete sono sta stai stando stanno starai staranno starebbe starebbero starei
		staremmo staremo stareste staresti starete staro stava stavamo stavano stavate stavi stavo stemmo stesse
		stessero stessi stessimo steste stesti stette stettero stetti stia stiamo stiano stiate sto su sua sue sugl
		sugli sui sul sull sulla sulle sullo suo suoi t ti tra tu tua tue tuo tuoi tutti tutto un una uno vi voi
		vostra vostre vostri vostro`),
	"en": wordSet(`a about above after again against all am an and any are as at be because been before being below
		between both but by can could did do does doing down during each few for from further had has have having he
		her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not
		now of off on once only or other our ours ourselves out over own same she should so some such than that the
		their theirs them themselves then there these they this those through to too under until up very was we were
		what when where which while who whom why will with would you your yours yourself yourselves s t d ll m re ve
		don doesn didn isn wasn aren weren won`),
}

func wordSet(words string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.Fields(words) {
		out[w] = true
	}
	return out
}
